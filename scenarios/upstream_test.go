package scenarios

import (
	"net/http"
	"net/http/httptest"
	"os"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdUpstream starts a scripted upstream on loopback for the rest of the
// script: it answers its Nth POST with the Nth file's bytes as a stream
// (text/event-stream), exactly as they are, the last file again once the
// list runs out; and sets UPSTREAM to its base URL (ending in /v1). It is
// the gateway of a scenario that captures a shape through record or proxy.
//
//	upstream FILE...
func cmdUpstream(ts *testscript.TestScript, neg bool, args []string) error {
	if neg || len(args) == 0 {
		return errUsage
	}
	var bodies [][]byte
	for _, name := range args {
		b, err := os.ReadFile(ts.MkAbs(name))
		if err != nil {
			return err
		}
		bodies = append(bodies, b)
	}
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "the scripted upstream answers POST only", http.StatusMethodNotAllowed)
			return
		}
		mu.Lock()
		body := bodies[min(n, len(bodies)-1)]
		n++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	ts.Defer(srv.Close)
	ts.Setenv("UPSTREAM", srv.URL+"/v1")
	return nil
}
