package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// tempDirs are the temporary folders of one run (the sandbox, the copy of an
// embedded cassette): removed by the run's own cleanup, or at once when a
// second signal ends the process.
type tempDirs struct {
	mu   sync.Mutex
	dirs []string
}

// mkdirTemp makes a temporary folder and tracks it when the Env tracks them.
func (e Env) mkdirTemp(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil && e.temps != nil {
		e.temps.mu.Lock()
		e.temps.dirs = append(e.temps.dirs, dir)
		e.temps.mu.Unlock()
	}
	return dir, err
}

func (t *tempDirs) removeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, d := range t.dirs {
		os.RemoveAll(d)
	}
	t.dirs = nil
}

// exitCode is the conventional status of a process ended by sig: 128 + its
// number (130 for SIGINT, 143 for SIGTERM).
func exitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// watchSignals makes SIGINT and SIGTERM stop a run, when the Env handles
// signals (the real process; scenarios running in one test process do not):
//
//   - the first one cancels ctx: the tool running stops at its next check,
//     no new request is sent, the run's cleanup removes the temporary sandbox
//     and discards a recording, and the command exits 130 (SIGINT) or 143
//     (SIGTERM) after one line on stderr;
//   - a second one exits at once with the same code, after removing the
//     temporary folders, without waiting for anything else.
//
// first reports the first signal received (nil when none); stop ends the
// watch.
func watchSignals(env Env, cancel context.CancelFunc) (first func() os.Signal, stop func()) {
	if !env.HandleSignals {
		return func() os.Signal { return nil }, func() {}
	}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var mu sync.Mutex
	var got os.Signal
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-ch:
				mu.Lock()
				firstSig := got
				if got == nil {
					got = sig
				}
				mu.Unlock()
				if firstSig == nil {
					fmt.Fprintf(env.Stderr, "agentvcr run: %s: stopping (again to quit at once)\n", signalName(sig))
					cancel()
					continue
				}
				env.temps.removeAll()
				os.Exit(exitCode(firstSig))
			}
		}
	}()
	first = func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	return first, func() {
		signal.Stop(ch)
		close(done)
	}
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
