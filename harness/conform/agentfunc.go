package conform

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"
)

// An AgentFunc is an agent that runs inside conform's own process: a Go
// function Run calls once per case instead of starting Options.Command.
//
// env holds the case's variables only, as NAME=VALUE: each format's base
// URL and key variable (wire.Env) and AGENTVCR_CASE (CaseVariable); the
// function reads its configuration there, not from os.Getenv. What it
// writes to stdout and stderr is what a command would print (kept, capped,
// in Result.Stdout and Result.Stderr); what it returns is its exit code.
//
// ctx ends when the case is decided (conform answered the request that
// fixes its verdict and stops the agent) or at the case's timeout
// (Options.Timeout, or StallTimeout for a stall case). The function must
// return when ctx is done: conform waits defaultFuncGrace (2 s) for it, as
// it gives a command's process group between SIGTERM and SIGKILL, then
// records the case as killed and leaves the goroutine behind. A panic is
// recovered and reported like a Go program's: its value and stack on
// stderr, exit code 2.
// Nothing is scrubbed from the process's environment, and the sweep of
// leftover processes does not apply: an in-process agent starts none.
type AgentFunc func(ctx context.Context, env []string, stdout, stderr io.Writer) int

// defaultFuncGrace is how long an AgentFunc has to return once its context
// is done.
const defaultFuncGrace = 2 * time.Second

// runAgentFunc runs agent with the case's variables until it returns or
// timeout passes; then its context is cancelled, and the function has
// grace to return.
func runAgentFunc(ctx context.Context, agent AgentFunc, extra []string, timeout, grace time.Duration) procResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out funcOutput
	out.stdout.max, out.stderr.max = maxOutput, maxOutput
	env := append([]string(nil), extra...)
	done := make(chan int, 1)
	go func() {
		code := 2
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(out.writer(&out.stderr), "panic: %v\n\n%s", p, debug.Stack())
			}
			done <- code
		}()
		code = agent(ctx, env, out.writer(&out.stdout), out.writer(&out.stderr))
	}()
	var res procResult
	select {
	case res.exitCode = <-done:
	case <-ctx.Done():
		select {
		case res.exitCode = <-done:
		case <-time.After(grace):
			res.exitCode = -1
			fmt.Fprintf(out.writer(&out.stderr), "\n[agentvcr conform: the agent function did not return within %s of its context's end]\n", grace)
		}
	}
	if ctx.Err() == context.DeadlineExceeded {
		res.timedOut, res.exitCode = true, -1
	}
	res.stdout, res.stderr = out.bytes()
	return res
}

// funcOutput is an AgentFunc's two output streams, written under one lock
// (the function may write from any goroutine, even after it was given up).
type funcOutput struct {
	mu             sync.Mutex
	stdout, stderr cappedBuffer
}

func (o *funcOutput) writer(b *cappedBuffer) io.Writer {
	return lockedWriter{mu: &o.mu, w: b}
}

func (o *funcOutput) bytes() (stdout, stderr []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]byte(nil), o.stdout.bytes()...), append([]byte(nil), o.stderr.bytes()...)
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
