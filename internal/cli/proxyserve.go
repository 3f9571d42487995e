package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
)

// serveProxy serves h, the handler in front of p, on listen until ctx is
// done, as record and proxy do. It writes the start-up lines on stderr
// (the beyond-loopback warning, then intro) before the base URL on stdout,
// so a wrapper that waits for the URL has seen them, never after a
// request's own line. At the end streams in progress get shutdownGrace,
// then p is stopped and its cassette (out, when given) saved. It returns
// the exit status.
func serveProxy(ctx context.Context, env Env, cmd string, p *record.Proxy, h http.Handler, listen, intro, out string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agentvcr "+cmd+": "+format+"\n", a...)
		return 1
	}
	ln, err := listenTCP(listen)
	if err != nil {
		p.Stop()
		return fail("%v: pick another -listen port, or 127.0.0.1:0 for a free one", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	base, _ := serve.ListenURL(ln.Addr())
	if line := serve.Exposure(cmd, ln.Addr()); line != "" {
		fmt.Fprintln(env.Stderr, line)
	}
	fmt.Fprintf(env.Stderr, "agentvcr %s: %s\n", cmd, intro)
	fmt.Fprintln(env.Stdout, baseURLLine(strings.TrimSuffix(base, "/v1")))
	<-ctx.Done()

	grace, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		srv.Close()
		if out != "" {
			fmt.Fprintf(env.Stderr, "agentvcr %s: a stream was still running after %s; it is not recorded\n", cmd, shutdownGrace)
		}
	}
	// Stop waits for the exchanges still ending (a WebSocket relay is not
	// the http.Server's once hijacked, so Shutdown does not wait for it):
	// the count is read after it.
	err = p.Stop()
	n := p.Recorded()
	if err != nil {
		if errors.Is(err, cassette.ErrEmptyRecording) {
			return fail("nothing was recorded (no request came through): %s was not written", out)
		}
		return fail("%v", err)
	}
	if out != "" {
		fmt.Fprintf(env.Stderr, "agentvcr %s: saved %d interactions to %s\n", cmd, n, out)
	}
	return 0
}
