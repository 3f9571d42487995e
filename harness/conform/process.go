package conform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync/atomic"
	"time"
)

// A Command is the agent conform runs once per case.
type Command struct {
	Path string
	Args []string
	// Dir is the folder it runs in ("" for conform's own).
	Dir string
	// Env is the environment it starts from (nil: conform's own), less
	// every credential (ScrubEnv); the case's variables are added to it.
	Env []string
	// PassEnv names credential variables the agent keeps (-pass-env).
	PassEnv []string
}

// procResult is how one run of the agent ended.
type procResult struct {
	stdout, stderr []byte
	exitCode       int
	startErr       error
	timedOut       bool
	// left is what the agent left running, killed when it ended.
	left []leftNote
}

// runAgent runs cmd as case id's agent with extra environment variables
// until it exits or timeout passes; then it and every process it started
// are killed (endAgent).
func runAgent(ctx context.Context, cmd Command, id string, extra []string, timeout time.Duration) procResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := exec.CommandContext(ctx, cmd.Path, cmd.Args...)
	c.Dir = cmd.Dir
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env, _ = ScrubEnv(env, cmd.PassEnv)
	mark := newMark()
	c.Env = append(append([]string(nil), env...), append(extra, markVariable+"="+mark)...)
	stdout, stderr := &cappedBuffer{max: maxOutput}, &cappedBuffer{max: maxOutput}
	c.Stdout, c.Stderr = stdout, stderr
	c.Stdin = nil
	setProcessGroup(c)
	var groupKilled atomic.Bool
	kill := c.Cancel
	c.Cancel = func() error { groupKilled.Store(true); return kill() }
	tieToConform(c)
	// A grandchild that keeps the output pipes open must not hold conform:
	// after the kill, Wait gives up on the pipes.
	c.WaitDelay = time.Second
	var res procResult
	unlock := lockThread()
	defer unlock()
	lc, err := startAgent(c, id, mark)
	if err != nil {
		res.startErr = err
		return res
	}
	err = c.Wait()
	res.left = endAgent(lc, groupKilled.Load())
	res.stdout, res.stderr = stdout.bytes(), stderr.bytes()
	var exit *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		res.timedOut, res.exitCode = true, -1
	case errors.As(err, &exit):
		res.exitCode = exit.ExitCode()
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		res.startErr = err
	}
	return res
}

// maxOutput is how much of each of the agent's output streams conform keeps.
const maxOutput = 4 << 20

// cappedBuffer keeps the first max bytes written to it and counts the rest,
// so a chatty agent cannot fill conform's memory.
type cappedBuffer struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	keep := min(len(p), b.max-b.buf.Len())
	b.buf.Write(p[:keep])
	b.dropped += len(p) - keep
	return len(p), nil
}

func (b *cappedBuffer) bytes() []byte {
	if b.dropped > 0 {
		fmt.Fprintf(&b.buf, "\n[agentvcr conform: %d more bytes not kept]\n", b.dropped)
	}
	return b.buf.Bytes()
}
