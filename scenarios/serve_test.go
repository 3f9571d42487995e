package scenarios

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentvcr/agentvcr/internal/cli"
)

// cmdServe runs agentvcr serve in the background for the rest of the
// script, in the script's folder and environment, and sets OPENAI_BASE_URL
// to its base URL and SERVE to its root (for case URLs:
// $SERVE/s/NAME~QUIRK/v1). Its stderr (misses, diffs) is printed when the
// script ends.
//
//	serve [flags]
func cmdServe(ts *testscript.TestScript, neg bool, args []string) error {
	if neg {
		return errUsage
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &firstLine{line: make(chan string, 1)}
	var stderr strings.Builder
	var mu sync.Mutex
	done := make(chan int, 1)
	env := cli.Env{Dir: ts.MkAbs("."), Getenv: ts.Getenv, Stdin: strings.NewReader(""), Stdout: stdout,
		Stderr: writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(p) })}
	go func() { done <- cli.Serve(ctx, env, args) }()
	select {
	case line := <-stdout.line:
		url, ok := strings.CutPrefix(line, "OPENAI_BASE_URL=")
		if !ok {
			cancel()
			<-done
			return fmt.Errorf("first line %q lacks OPENAI_BASE_URL=", line)
		}
		ts.Setenv("OPENAI_BASE_URL", url)
		ts.Setenv("SERVE", strings.TrimSuffix(url, "/v1"))
	case code := <-done:
		cancel()
		return fmt.Errorf("agentvcr serve exited %d: %s", code, stderr.String())
	}
	ts.Defer(func() {
		cancel()
		<-done
		mu.Lock()
		defer mu.Unlock()
		ts.Logf("serve stderr:\n%s", stderr.String())
	})
	return nil
}

// firstLine hands the first line written to it over a channel.
type firstLine struct {
	mu   sync.Mutex
	buf  strings.Builder
	line chan string
	sent bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf.Write(p)
	if line, _, ok := strings.Cut(f.buf.String(), "\n"); ok && !f.sent {
		f.sent = true
		f.line <- line
	}
	return len(p), nil
}

type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }
