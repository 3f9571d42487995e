//go:build unix

package conform

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the agent in a process group of its own, and makes
// the kill at -timeout reach the whole group (a `go run` or `npx` wrapper's
// child too).
func setProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error {
		return syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
}
