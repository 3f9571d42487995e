package main

import (
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/internal/bareserver"
)

// bareHandler serves reply's events from bareserver.Handler: the floor of
// `agentvcr serve`'s per-event flushing. It matches nothing and checks
// nothing.
func bareHandler(reply []byte) http.Handler {
	return bareserver.Handler(sse.SplitEvents(reply))
}

// serveBare listens on loopback, prints "bare BASE_URL" on out, and serves
// reply to every request until the process is killed.
func serveBare(out io.Writer, reply []byte) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "bare http://%s/v1\n", ln.Addr())
	return http.Serve(ln, bareHandler(reply))
}
