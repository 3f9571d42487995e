//go:build !unix

package conform

import "os/exec"

// setProcessGroup is the default kill of the agent alone where process
// groups are not available.
func setProcessGroup(*exec.Cmd) {}
