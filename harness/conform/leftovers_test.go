//go:build linux

package conform

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every process an agent started is gone when its case ends, and named in
// its details: a background child that outlives an agent exiting 0, and a
// setsid grandchild of an agent killed at -timeout (the child between
// them dies with the agent's group, killed at -timeout: not named).
func TestNoProcessOutlivesItsCase(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"clean"})
	for _, tt := range []struct {
		mode    string
		timeout time.Duration
		pids    []string
		details string
	}{
		{hostileBackground, slow * 10 * time.Second, []string{"background.pid"},
			"the agent exited with code 0 without sending a request to the case's URL; and it left 1 process behind: sleep"},
		{hostileSession, slow * 2 * time.Second, []string{"kid.pid", "setsid.pid"},
			"the agent sent no request and was still running after -timeout " + (slow * 2 * time.Second).String() + ": killed; and it left 1 process behind: sleep"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			dir := t.TempDir()
			results, err := Run(context.Background(), Options{Folder: agentFolder, Command: hostileCommand(t, tt.mode, dir), Cases: only, Timeout: tt.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if r := results[0]; r.Details != tt.details {
				t.Errorf("details %q\nwant %q", r.Details, tt.details)
			}
			for _, name := range tt.pids {
				pid := readPid(t, dir, name)
				defer killLeft(pid)
				if ok, cmdline := running(pid); ok {
					t.Errorf("%s: process %d (%s) still runs after its case ended", name, pid, cmdline)
				}
			}
		})
	}
}

// An agent dies with the conform that started it: SIGKILL a conform
// mid-case and its agent is gone. Not parallel: the small conform is a
// child of this test process that no case started, which a sweep of a
// case running alongside would take for a leftover and kill.
func TestAgentDiesWithConform(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mini := exec.Command(exe)
	mini.Env = append(os.Environ(), miniConformEnv+"="+dir)
	if err := mini.Start(); err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, dir, "agent.pid")
	defer killLeft(pid)
	if err := mini.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	mini.Wait()
	// The kernel delivers the agent's SIGKILL as its parent exits; give a
	// loaded machine ten seconds to get there.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok, _ := running(pid); !ok {
			return
		}
	}
	_, cmdline := running(pid)
	t.Errorf("the agent %d (%s) still runs after its conform was killed", pid, cmdline)
}

// running reports whether pid is a process that has not exited (a zombie
// has), with its command line, reaping it when it is a zombie child of the
// test.
func running(pid int) (bool, string) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false, ""
	}
	_, rest, _ := bytes.Cut(stat, []byte(") "))
	if len(rest) > 0 && rest[0] == 'Z' {
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		return false, ""
	}
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return true, string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
}

// killLeft kills pid if it runs, so that a failing test leaves nothing.
func killLeft(pid int) {
	if ok, _ := running(pid); ok {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// A daemon that detached itself from all a mark and a process group can
// tell is still found, as conform is its parent once the agent exited:
// one in a session of its own whose command line and environment are
// rewritten, and one in a session of its own started with another mark.
// The case names it and is a WARNING. Not parallel: with other cases
// running, the sweep could not tell which one left it, and would name it
// in theirs too.
func TestDetachedDaemonDiesWithItsCase(t *testing.T) {
	only, _ := SelectCases(Cases(), []string{"clean"})
	for _, tt := range []struct{ mode, name string }{
		{hostileRetitled, "retitled"},
		{hostileRemarked, "sleep"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			dir := t.TempDir()
			results, err := Run(context.Background(), Options{Folder: agentFolder, Command: hostileCommand(t, tt.mode, dir), Cases: only, Timeout: slow * 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			pid := readPid(t, dir, "daemon.pid")
			defer killLeft(pid)
			r := results[0]
			want := "2 calls re-sent and answered; exit 0; but it left 1 process behind: " + tt.name
			if r.Status != Warning || r.Details != want {
				t.Errorf("%s: %s\nwant %s: %s\nstderr: %s", r.Status, r.Details, Warning, want, r.Stderr)
			}
			if ok, cmdline := running(pid); ok {
				t.Errorf("the daemon %d (%q) still runs after its case ended", pid, cmdline)
			}
		})
	}
}

// Orphans that exit while their case runs are reaped at once: none stays
// a zombie of conform until the case ends. Not parallel: it counts all of
// conform's zombies.
func TestOrphansAreReapedAsTheyExit(t *testing.T) {
	dir := t.TempDir()
	only, _ := SelectCases(Cases(), []string{"clean"})
	type ran struct {
		results []Result
		err     error
	}
	done := make(chan ran, 1)
	go func() {
		results, err := Run(context.Background(), Options{Folder: agentFolder, Command: hostileCommand(t, hostileOrphans, dir), Cases: only, Timeout: slow * 60 * time.Second})
		done <- ran{results, err}
	}()
	defer func() {
		os.WriteFile(filepath.Join(dir, "release"), nil, 0o644)
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		want := "the agent exited with code 0 without sending a request to the case's URL"
		if got := r.results[0].Details; got != want {
			t.Errorf("details %q\nwant %q", got, want)
		}
	}()
	if err := waitFile(dir, "orphans.done"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "orphans.pids"))
	if err != nil {
		t.Fatal(err)
	}
	orphans := strings.Fields(string(b))
	if len(orphans) != orphanCount {
		t.Fatalf("%d orphans, want %d: %q", len(orphans), orphanCount, b)
	}
	self := os.Getpid()
	var zombies, runs int
	for deadline := time.Now().Add(slow * 5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		zombies, runs = 0, 0
		procs := readProcs()
		for _, p := range procs {
			if p.ppid == self && p.state == 'Z' {
				zombies++
			}
		}
		for _, s := range orphans {
			pid, _ := strconv.Atoi(s)
			if p, ok := procs[pid]; ok && p.state != 'Z' {
				runs++
			}
		}
		if zombies == 0 && runs == 0 {
			return
		}
	}
	t.Errorf("mid-case: %d zombies of conform, %d of the %d orphans still running", zombies, runs, orphanCount)
}

// With another case running alongside, an orphan that no mark ties to
// one case is named in both: one of them left it. Not parallel, for the
// same reason as above; the case alongside is only listed as running.
func TestOrphanIsNamedInEveryCaseRunningAlongside(t *testing.T) {
	other := &liveCase{id: "fault_other", mark: newMark()}
	live.Lock()
	live.cases[other.mark] = other
	live.Unlock()
	defer func() {
		live.Lock()
		delete(live.cases, other.mark)
		live.Unlock()
	}()
	dir := t.TempDir()
	only, _ := SelectCases(Cases(), []string{"clean"})
	results, err := Run(context.Background(), Options{Folder: agentFolder, Command: hostileCommand(t, hostileRemarked, dir), Cases: only, Timeout: slow * 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, dir, "daemon.pid")
	defer killLeft(pid)
	want := "2 calls re-sent and answered; exit 0; but it or a case running alongside it (fault_other) left 1 process behind: sleep"
	if r := results[0]; r.Status != Warning || r.Details != want {
		t.Errorf("%s: %s\nwant %s: %s", r.Status, r.Details, Warning, want)
	}
	live.Lock()
	got := leftBehind(verdict{status: Success, details: "exit 0"}, other.shared)
	live.Unlock()
	if want := "exit 0; but it or a case running alongside it (clean) left 1 process behind: sleep"; got.status != Warning || got.details != want {
		t.Errorf("the case alongside: %s: %s\nwant %s: %s", got.status, got.details, Warning, want)
	}
}

// What a sweep picks, from a made-up /proc: conform is 100, in session
// 100; the ending case's agent was 299 (its session and group) with mark
// "own"; another case runs with mark "theirs" and agent 200.
func TestLeftoversPicked(t *testing.T) {
	procs := map[int]proc{
		100: {ppid: 1, pgrp: 100, sid: 100},
		200: {ppid: 100, pgrp: 200, sid: 200},                // the other case's agent
		201: {ppid: 200, pgrp: 200, sid: 200},                // its child
		300: {ppid: 100, pgrp: 299, sid: 299},                // the agent's group, orphaned
		301: {ppid: 300, pgrp: 301, sid: 301},                // its child, in a session of its own
		302: {ppid: 100, pgrp: 302, sid: 299},                // the agent's session, another group, orphaned
		400: {ppid: 100, pgrp: 400, sid: 400},                // an orphan no case claims
		401: {ppid: 400, pgrp: 401, sid: 400},                // its child
		500: {ppid: 100, pgrp: 500, sid: 500},                // an orphan with the other case's mark
		501: {ppid: 500, pgrp: 500, sid: 500},                // its child
		600: {ppid: 100, pgrp: 200, sid: 200},                // an orphan in the other agent's group
		601: {ppid: 100, pgrp: 601, sid: 200},                // one in the other agent's session
		700: {ppid: 100, pgrp: 700, sid: 700, state: 'Z'},    // an orphan that exited
		701: {ppid: 100, pgrp: 701, sid: 701, exiting: true}, // one exiting
		800: {ppid: 1, pgrp: 800, sid: 800},                  // outside conform's tree, with the mark
		801: {ppid: 1, pgrp: 299, sid: 299},                  // outside conform's tree, in a group numbered like the agent's
		900: {ppid: 1, pgrp: 900, sid: 900},                  // outside, unmarked
		950: {ppid: 100, pgrp: 950, sid: 950},                // an orphan with a mark of no running case
		960: {ppid: 100, pgrp: 100, sid: 100},                // a child the program running conform started
		961: {ppid: 100, pgrp: 961, sid: 100},                // one in a group of its own
	}
	marks := map[int][]string{200: {"theirs"}, 201: {"theirs"}, 500: {"theirs"}, 501: {"theirs"}, 800: {"own"}, 950: {"gone"}}
	v := sweepView{self: 100, sid: 100, pgid: 299, mark: "own", marks: map[string]bool{"theirs": true}, agents: map[int]bool{200: true}}
	got := v.leftovers(procs, func(pid int) []string { return marks[pid] })
	want := map[int]finding{300: ownProc, 301: ownProc, 302: ownProc, 800: ownProc, 400: orphanProc, 401: orphanProc, 950: orphanProc}
	if !maps.Equal(got, want) {
		t.Errorf("picked %v\nwant %v", got, want)
	}
}
