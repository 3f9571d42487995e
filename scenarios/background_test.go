package scenarios

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentvcr/agentvcr/internal/cli"
)

// backgroundKey is the key of the script's running background commands in
// testscript's values: interrupt NAME ends one before the script does.
type backgroundKey struct{}

// A background is the set of a script's background commands (serve,
// proxy) still running, each with the function that stops it and returns
// its stderr.
type background struct {
	mu      sync.Mutex
	running map[string]func() string
}

// inBackground runs the agentvcr command run (cli.Serve, cli.Proxy) in the
// background for the rest of the script, in the script's folder and
// environment, and sets OPENAI_BASE_URL to its base URL (the first line it
// prints) and, when root is not empty, the variable root to that URL
// without /v1. interrupt NAME ends it earlier and prints its stderr on the
// script's stderr (what it saved, what it refused); otherwise its stderr is
// logged when the script ends.
func inBackground(name, root string, run func(context.Context, cli.Env, []string) int) func(ts *testscript.TestScript, neg bool, args []string) error {
	return func(ts *testscript.TestScript, neg bool, args []string) error {
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
		go func() { done <- run(ctx, env, args) }()
		select {
		case line := <-stdout.line:
			url, ok := strings.CutPrefix(line, "OPENAI_BASE_URL=")
			if !ok {
				cancel()
				<-done
				return fmt.Errorf("first line %q lacks OPENAI_BASE_URL=", line)
			}
			ts.Setenv("OPENAI_BASE_URL", url)
			if root != "" {
				ts.Setenv(root, strings.TrimSuffix(url, "/v1"))
			}
		case code := <-done:
			cancel()
			return fmt.Errorf("agentvcr %s exited %d: %s", name, code, stderr.String())
		}
		var once sync.Once
		var last string
		stop := func() string {
			once.Do(func() {
				cancel()
				<-done
				mu.Lock()
				defer mu.Unlock()
				last = stderr.String()
			})
			return last
		}
		bg := ts.Value(backgroundKey{}).(*background)
		bg.mu.Lock()
		bg.running[name] = stop
		bg.mu.Unlock()
		ts.Defer(func() { ts.Logf("%s stderr:\n%s", name, stop()) })
		return nil
	}
}

// cmdInterrupt ends a background command (serve, proxy) now, as Ctrl-C would,
// and prints its stderr on the script's stderr: what proxy -o saved.
//
//	interrupt NAME
func cmdInterrupt(ts *testscript.TestScript, neg bool, args []string) error {
	if neg || len(args) != 1 {
		return errUsage
	}
	bg := ts.Value(backgroundKey{}).(*background)
	bg.mu.Lock()
	stop, ok := bg.running[args[0]]
	delete(bg.running, args[0])
	bg.mu.Unlock()
	if !ok {
		return fmt.Errorf("no %s runs in the background", args[0])
	}
	fmt.Fprint(ts.Stderr(), stop())
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
