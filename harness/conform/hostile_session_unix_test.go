//go:build unix

package conform

import (
	"os/exec"
	"syscall"
)

// newSession starts c in a session of its own (setsid), out of its
// parent's process group.
func newSession(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
