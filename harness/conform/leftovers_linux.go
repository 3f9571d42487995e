package conform

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// sweepRounds bounds how many times a sweep looks again for processes
// that a killed one forked meanwhile, or that are not dead yet.
const sweepRounds = 40

// sweeping makes sweeps one at a time: the cases a sweep names as running
// alongside cannot end (their end is their sweep) before it tells them.
var sweeping sync.Mutex

// endAgent is called once lc's agent was waited for: it kills every
// process the agent left behind, reaps those re-parented to conform, says
// what it killed, and takes lc off the running cases. groupKilled is
// whether the agent's group was killed at -timeout (or when conform
// stopped it): what is left of that group is dying from that kill, and is
// not named.
//
// A process is the case's (own) when it carries the case's mark
// (markVariable=mark, inherited by whatever the agent starts), when it is
// in conform's tree and in the agent's session or process group, or when
// it descends from such a process. On top of those, a process is an
// orphan of some case when conform, as subreaper, is its parent, it is
// outside conform's session (so no child the program running conform
// started there), it is no running agent, carries no running case's mark
// and is in no running agent's session or group, or when it descends
// from one; an orphan also stays in conform's
// tree whatever it changed of itself (session, group, environment, command
// line), so it is found however it detached. A sweep kills both kinds.
//
// An orphan belongs to the ending case or to one of the cases running at
// the sweep: every case that ended before had its own sweep, which killed
// all the orphans there were then. With one case at a time (-p 1) it is
// the ending case's; with more, the sweep cannot tell which started it,
// and every one of them gets the note, naming the others. The group and
// the session of a process found need no kill of their own: a process
// joins a group only within its session and a session only by being
// forked in it, so their members are all in conform's tree and descend
// from a process found.
func endAgent(lc *liveCase, groupKilled bool) []leftNote {
	sweeping.Lock()
	defer sweeping.Unlock()
	self := os.Getpid()
	named := map[int]bool{}
	var own, orphans leftNote
	others := map[string]bool{}
	for round := 1; round <= sweepRounds; round++ {
		left := 0
		live.Lock()
		procs := readProcs()
		v := sweepView{self: self, sid: procs[self].sid, pgid: lc.agent, mark: lc.mark, agents: agents(lc), marks: map[string]bool{}}
		for mark, other := range live.cases {
			if other != lc {
				v.marks[mark] = true
			}
		}
		found := v.leftovers(procs, marksOf)
		for pid, f := range found {
			p := procs[pid]
			dying := p.state == 'Z' || p.state == 'X' || p.exiting
			if !dying {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			if !named[pid] && !dying && !(groupKilled && f == ownProc && p.pgrp == lc.agent) {
				named[pid] = true
				if f == ownProc {
					own.names = append(own.names, visible(p.comm))
				} else {
					orphans.names = append(orphans.names, visible(p.comm))
					for _, other := range live.cases {
						if other != lc {
							others[other.id] = true
						}
					}
				}
			}
		}
		// What is dying (found or not: its children are re-parented
		// to conform when it is gone) is waited for, and reaped when it
		// is conform's child.
		for pid, p := range procs {
			_, isFound := found[pid]
			if !isFound && (p.ppid != self || p.sid == v.sid || v.agents[pid] || !(p.state == 'Z' || p.exiting)) {
				continue
			}
			if p.ppid == self && !v.agents[pid] {
				var ws syscall.WaitStatus
				if got, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid {
					continue
				}
			}
			left++
		}
		if left == 0 || round == sweepRounds {
			delete(live.cases, lc.mark)
			notes := lc.shared
			if len(own.names) > 0 {
				notes = append(notes, own)
			}
			if len(orphans.names) > 0 {
				mine := orphans
				mine.others = slices.Sorted(maps.Keys(others))
				notes = append(notes, mine)
				for _, other := range live.cases {
					if others[other.id] {
						theirs := orphans
						theirs.others = append([]string{lc.id}, without(mine.others, other.id)...)
						slices.Sort(theirs.others)
						other.shared = append(other.shared, theirs)
					}
				}
			}
			live.Unlock()
			return notes
		}
		live.Unlock()
		time.Sleep(time.Duration(round) * 5 * time.Millisecond)
	}
	return nil // not reached: the last round returns
}

// without is ids less id.
func without(ids []string, id string) []string {
	var out []string
	for _, s := range ids {
		if s != id {
			out = append(out, s)
		}
	}
	return out
}

// A sweepView is what a sweep knows when it picks the leftovers: conform's
// pid and session, the ending case's agent (its pid, which is also its
// session and group) and mark, the other running cases' marks and the
// running agents' pids.
type sweepView struct {
	self, sid, pgid int
	mark            string
	marks           map[string]bool
	agents          map[int]bool
}

// A finding is why a process is a leftover.
type finding int

const (
	ownProc    finding = iota + 1 // the ending case's: its mark or its group
	orphanProc                    // a child of conform no running case claims
)

// leftovers picks the processes a sweep kills out of procs, each with its
// finding; marksOf reads the marks a process's environment holds.
func (v sweepView) leftovers(procs map[int]proc, marksOf func(pid int) []string) map[int]finding {
	root := func(pid int) int { // the child of conform pid descends from; 0 outside conform's tree
		for range len(procs) {
			p, ok := procs[pid]
			if !ok {
				return 0
			}
			if p.ppid == v.self {
				return pid
			}
			pid = p.ppid
		}
		return 0
	}
	found := map[int]finding{}
	claimed := map[int]bool{} // another running case's, by its mark or group
	for pid, p := range procs {
		if pid == v.self || v.agents[pid] {
			continue
		}
		marks := marksOf(pid)
		r := root(pid)
		switch {
		case slices.Contains(marks, v.mark) || (r != 0 && (p.pgrp == v.pgid || p.sid == v.pgid)):
			found[pid] = ownProc
		case slices.ContainsFunc(marks, func(m string) bool { return v.marks[m] }) || (r != 0 && (v.agents[p.pgrp] || v.agents[p.sid])):
			claimed[pid] = true
		case r == pid && p.sid != v.sid && !p.exiting && p.state != 'Z':
			found[pid] = orphanProc
		}
	}
	// Descendants, however far from a process found above, but for what
	// another case claims.
	for grew := true; grew; {
		grew = false
		for pid, p := range procs {
			if _, ok := found[pid]; ok || pid == v.self || claimed[pid] || v.agents[pid] {
				continue
			}
			if f, ok := found[p.ppid]; ok {
				found[pid], grew = f, true
			}
		}
	}
	return found
}

// proc is what a sweep reads of one process in /proc/PID/stat.
type proc struct {
	ppid, pgrp, sid int
	state           byte // R, S, D, Z, ...
	exiting         bool // PF_EXITING: it is in exit(), and its environment is gone
	comm            string
}

// pfExiting is PF_EXITING from linux/sched.h, in /proc/PID/stat's flags.
const pfExiting = 0x4

// readProcs reads every process's parent, group, session, state and name.
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
		// pid (comm) state ppid pgrp session tty_nr tpgid flags ...:
		// comm may hold spaces and parentheses.
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(string(stat[end+1:]))
		if len(f) < 7 || len(f[0]) != 1 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		sid, _ := strconv.Atoi(f[3])
		flags, _ := strconv.ParseUint(f[6], 10, 64)
		procs[pid] = proc{ppid: ppid, pgrp: pgrp, sid: sid, state: f[0][0], exiting: flags&pfExiting != 0, comm: string(stat[open+1 : end])}
	}
	return procs
}

// marksOf is every mark the environment pid started with holds (a
// zombie's, an exiting process's or another user's cannot be read: none).
func marksOf(pid int) []string {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil
	}
	var marks []string
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(markVariable+"=")); ok {
			marks = append(marks, string(v))
		}
	}
	return marks
}
