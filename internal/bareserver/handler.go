package bareserver

import (
	"io"
	"net/http"
)

// Handler reads each request's body and answers with events, each flushed
// but the last (which leaves with the end of the body), as serve does.
func Handler(events [][]byte) http.Handler {
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
