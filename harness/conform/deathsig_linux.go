package conform

import (
	"os/exec"
	"runtime"
	"syscall"
)

// tieToConform makes the kernel SIGKILL the agent when conform dies, for
// whatever reason (SIGKILL, the OOM killer, a CI job's timeout), so that no
// agent keeps posting to a server that is gone.
//
// PR_SET_PDEATHSIG fires when the thread that forked the child exits, not
// the process (prctl(2); golang/go#27505). Go exits a thread only when a
// goroutine locked to it returns without unlocking, which any library may
// do; so runAgent locks its goroutine to its thread (lockThread) from
// before the fork until the agent was waited for: no other goroutine runs
// on that thread meanwhile, and the lock is released only after the agent
// is gone.
func tieToConform(c *exec.Cmd) {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// lockThread locks the calling goroutine to its thread for tieToConform;
// call the result once the agent was waited for.
func lockThread() (unlock func()) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
