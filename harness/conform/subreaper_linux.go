package conform

import (
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from linux/prctl.h.
const prSetChildSubreaper = 36

// A liveCase is a case whose agent runs, from just before its start until
// its sweep is done.
type liveCase struct {
	id    string
	mark  string
	agent int // the agent's pid, once started
	// shared is what other cases' sweeps found that this case may have
	// left: processes they could not tie to one case (leftovers_linux.go).
	shared []leftNote
}

// live is every case whose agent runs, by mark. Its lock is held
// while an agent starts, while a sweep reads /proc and kills, and while
// the reaper reaps: a child of conform that is not a running agent is
// then an orphan re-parented to conform, never an agent os/exec has just
// started and not yet told us about, nor one whose exit status os/exec
// waits for.
var live = struct {
	sync.Mutex
	cases map[string]*liveCase
}{cases: map[string]*liveCase{}}

// agents is the pids of the running agents but except's (nil: all of
// them); live is locked.
func agents(except *liveCase) map[int]bool {
	pids := map[int]bool{}
	for _, lc := range live.cases {
		if lc.agent != 0 && lc != except {
			pids[lc.agent] = true
		}
	}
	return pids
}

// startAgent starts c as the agent of case id with its mark, and records
// it as running. Conform starts no other process: any other child it has
// was re-parented to it.
func startAgent(c *exec.Cmd, id, mark string) (*liveCase, error) {
	becomeSubreaper()
	live.Lock()
	defer live.Unlock()
	if err := c.Start(); err != nil {
		return nil, err
	}
	lc := &liveCase{id: id, mark: mark, agent: c.Process.Pid}
	live.cases[mark] = lc
	return lc, nil
}

var subreaper sync.Once

// becomeSubreaper makes conform's process a child subreaper (Linux 3.4+)
// for the rest of its life: a process whose parent exits is re-parented
// to conform instead of to init, so every process an agent started stays
// in conform's tree, however it detached itself (a new session, a new
// environment, a new command line); and it starts the reaper, since those
// orphans become conform's zombies when they exit. A kernel that refuses
// leaves orphans to init, where only the mark finds them.
func becomeSubreaper() {
	subreaper.Do(func() {
		if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
			return
		}
		exits := make(chan os.Signal, 1)
		signal.Notify(exits, syscall.SIGCHLD)
		go func() {
			for range exits {
				reapOrphans()
			}
		}()
	})
}

// reapOrphans reaps every zombie child of conform that is not a running
// agent: a process re-parented to conform that has exited. It waits for
// each by its pid, so the exit status of an agent stays for os/exec's
// Wait; a wait for any child (wait4(-1)) would take it. SIGCHLD signals
// coalesce, so each call looks at all of conform's children.
func reapOrphans() {
	live.Lock()
	defer live.Unlock()
	self := os.Getpid()
	busy := agents(nil)
	procs := readProcs()
	for pid, p := range procs {
		if p.ppid == self && p.sid != procs[self].sid && p.state == 'Z' && !busy[pid] {
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
	}
}
