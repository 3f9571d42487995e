package main

import (
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// bareHandler is the floor `agentvcr serve`'s per-event flushing is
// measured against: a plain net/http handler that reads the request's body
// and writes the recorded reply's events with the headers serve sends for a
// stream, each event flushed but the last (which leaves with the end of the
// body), as serve does by default. It matches nothing and checks nothing.
func bareHandler(reply []byte) http.Handler {
	events := sse.SplitEvents(reply)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		flusher := w.(http.Flusher)
		for i, e := range events {
			w.Write(e)
			if i < len(events)-1 {
				flusher.Flush()
			}
		}
	})
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
