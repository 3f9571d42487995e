//go:build !linux

package conform

import "os/exec"

// A liveCase is a case whose agent runs.
type liveCase struct{}

// startAgent starts c; elsewhere than on Linux conform is no subreaper
// and keeps no list of its agents.
func startAgent(c *exec.Cmd, id, mark string) (*liveCase, error) {
	return &liveCase{}, c.Start()
}

// endAgent does nothing where there is no /proc to find what an agent
// left: the kill at -timeout reaches its process group only.
func endAgent(lc *liveCase, groupKilled bool) []leftNote { return nil }
