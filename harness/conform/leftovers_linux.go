package conform

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from linux/prctl.h.
const prSetChildSubreaper = 36

var subreaper sync.Once

// becomeSubreaper makes conform's process a child subreaper (Linux 3.4+):
// a process whose parent exits is re-parented to conform instead of to
// init, so every process an agent left behind stays in conform's tree, and
// conform reaps the ones it kills (in a container whose init reaps no
// orphans, they would stay zombies). The setting lasts for the process's
// life; a kernel that refuses it leaves orphans to init, where the mark
// still finds them.
func becomeSubreaper() {
	subreaper.Do(func() {
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}

// sweepRounds bounds how many times sweep looks again for processes that
// a killed one forked meanwhile, or that are not dead yet.
const sweepRounds = 40

// sweep kills every process one case's agent left behind, and reaps those
// re-parented to conform: a process whose environment carries the case's
// mark (markVariable=mark, inherited by whatever the agent starts), one of
// conform's descendants in the agent's process group pgid, and every
// descendant of those. Processes outside conform's tree are only killed
// for the mark, a random value no other process carries, so a pgid reused
// after the agent exited cannot reach an unrelated process.
func sweep(mark string, pgid int) {
	self := os.Getpid()
	entry := []byte(markVariable + "=" + mark + "\x00")
	for round := 1; round <= sweepRounds; round++ {
		procs := readProcs()
		left := 0
		for pid, p := range leftovers(procs, self, pgid, entry) {
			if !p.zombie {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			if p.ppid == self {
				var ws syscall.WaitStatus
				if got, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid {
					continue
				}
			}
			left++
		}
		if left == 0 {
			return
		}
		time.Sleep(time.Duration(round) * 5 * time.Millisecond)
	}
}

// proc is what sweep reads of one process in /proc/PID/stat.
type proc struct {
	ppid, pgrp int
	zombie     bool
}

// readProcs reads every process's parent, group and state.
func readProcs() map[int]proc {
	procs := map[int]proc{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		procs[pid] = proc{ppid: ppid, pgrp: pgrp, zombie: f[0] == "Z"}
	}
	return procs
}

// leftovers picks the processes sweep kills out of procs.
func leftovers(procs map[int]proc, self, pgid int, entry []byte) map[int]proc {
	inTree := func(pid int) bool {
		for range len(procs) {
			p, ok := procs[pid]
			if !ok {
				return false
			}
			if p.ppid == self {
				return true
			}
			pid = p.ppid
		}
		return false
	}
	left := map[int]proc{}
	for pid, p := range procs {
		if pid == self {
			continue
		}
		if (p.pgrp == pgid && inTree(pid)) || marked(pid, entry) {
			left[pid] = p
		}
	}
	// Descendants, however far from a process found above.
	for grew := true; grew; {
		grew = false
		for pid, p := range procs {
			if _, ok := left[pid]; !ok && pid != self {
				if _, parent := left[p.ppid]; parent {
					left[pid], grew = p, true
				}
			}
		}
	}
	return left
}

// marked reports whether the environment pid started with holds entry
// (a zombie's, or another user's, cannot be read: not marked).
func marked(pid int, entry []byte) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return err == nil && (bytes.HasPrefix(env, entry) || bytes.Contains(env, append([]byte{0}, entry...)))
}
