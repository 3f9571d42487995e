//go:build linux

package conform

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
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
