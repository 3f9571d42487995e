//go:build unix

package conform

import (
	"os/exec"
	"syscall"
	"time"
)

// killGrace is how long the agent's group has between SIGTERM and SIGKILL
// at -timeout: a wrapper's EXIT trap removes its temporary home, an agent
// flushes its log to stderr (SIGKILL alone left opencode's homes behind).
const killGrace = 2 * time.Second

// setProcessGroup starts the agent in a session of its own, so in a process
// group of its own too, and makes the kill at -timeout reach the whole
// group (a `go run` or `npx` wrapper's child too): SIGTERM, then SIGKILL
// once the group leader exited or after killGrace. The session is how a
// sweep tells what an agent started from what the program running conform
// started itself (leftovers_linux.go): no process re-enters the session
// conform runs in once out of it. The agent has no controlling terminal:
// it reads nothing and prints nothing there.
func setProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	c.Cancel = func() error {
		pid := c.Process.Pid
		if err := syscall.Kill(-pid, syscall.SIGTERM); err != nil {
			return err
		}
		deadline := time.Now().Add(killGrace)
		for time.Now().Before(deadline) && c.Process.Signal(syscall.Signal(0)) == nil {
			time.Sleep(20 * time.Millisecond)
		}
		syscall.Kill(-pid, syscall.SIGKILL) // what is left of the group; ESRCH when nothing is
		return nil
	}
}
