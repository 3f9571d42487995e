package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentvcr/agentvcr/harness/quirk"
)

// servedCassettes reads base cassettes of the repository by name.
func servedCassettes(t testing.TB, names ...string) []ServedCassette {
	t.Helper()
	var out []ServedCassette
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("..", "..", "cassettes", n+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ServedCassette{Name: n, Data: data})
	}
	return out
}

// serveOn serves s over loopback for the test's duration.
func serveOn(t testing.TB, s *Server) string {
	t.Helper()
	base, stop, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop() })
	return base
}

func TestServeRoutesAndModels(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, "demo", "parallel")}
	base := serveOn(t, &Server{Route: router.Route})
	root := strings.TrimSuffix(base, "/v1")
	tests := []struct {
		reason, method, path string
		status               int
		body                 string
	}{
		{"the plain URL lists every recorded model", "GET", "/v1/models", 200,
			`{"object":"list","data":[{"id":"demo","object":"model","created":1767225600,"owned_by":"agentvcr"},{"id":"parallel","object":"model","created":1767225600,"owned_by":"agentvcr"}]}`},
		{"a case URL lists its cassette's", "GET", "/s/parallel/v1/models", 200,
			`{"object":"list","data":[{"id":"parallel","object":"model","created":1767225600,"owned_by":"agentvcr"}]}`},
		{"an unknown case", "GET", "/s/nope/v1/models", 404,
			`{"error":{"code":"not_found","message":"case \"nope\": no such case; served cassettes: demo, parallel","type":"invalid_request_error"}}`},
		{"an unknown quirk", "GET", "/s/demo~nope/v1/models", 404,
			`{"error":{"code":"not_found","message":"case \"demo~nope\": unknown quirk \"nope\": no such case; quirks: ` + strings.Join(quirk.Names(), ", ") + `","type":"invalid_request_error"}}`},
		{"a composition with an unknown part", "GET", "/s/demo~crlf+nope/v1/models", 404,
			`{"error":{"code":"not_found","message":"case \"demo~crlf+nope\": unknown quirk \"nope\": no such case; quirks: ` + strings.Join(quirk.Names(), ", ") + `","type":"invalid_request_error"}}`},
		{"a composition that undoes a part", "GET", "/s/demo~crlf+no_done/v1/models", 404,
			`{"error":{"code":"not_found","message":"case \"demo~crlf+no_done\": cannot compose crlf with no_done: no_done writes the line ends again, undoing crlf (put crlf after it): no such case","type":"invalid_request_error"}}`},
		{"a composed quirk's case lists its cassette's", "GET", "/s/demo~no_done+crlf/v1/models", 200,
			`{"object":"list","data":[{"id":"demo","object":"model","created":1767225600,"owned_by":"agentvcr"}]}`},
		{"an unknown path", "GET", "/v1/embeddings", 404,
			`{"error":{"code":"not_found","message":"no route for GET /v1/embeddings: use POST .../v1/chat/completions, .../v1/messages, .../v1/responses, .../v1beta/models/MODEL:streamGenerateContent, .../model/MODEL/invoke-with-response-stream, .../v1/projects/PROJECT/locations/global/publishers/anthropic/models/MODEL:streamRawPredict or .../model/MODEL/converse-stream, or GET .../v1/models","type":"invalid_request_error"}}`},
		{"the wrong method", "GET", "/s/demo/v1/chat/completions", 405,
			`{"error":{"code":"invalid_request_error","message":"GET is not allowed on /v1/chat/completions","type":"invalid_request_error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, root+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			if resp.StatusCode != tt.status || strings.TrimSpace(body.String()) != tt.body {
				t.Errorf("%s %s: %d %s\nwant %d %s", tt.method, tt.path, resp.StatusCode, body.String(), tt.status, tt.body)
			}
		})
	}
}

func TestServeJournal(t *testing.T) {
	var journal bytes.Buffer
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel"), Match: MatchTurn, Fault: Fault{Kind: FaultReset, Turn: 2}}
	base := serveOn(t, &Server{Route: router.Route, Journal: &journal})
	for _, b := range []string{turn1Body, turn2Body, `{"model":"parallel","messages":[{"role":"assistant"},{"role":"assistant"},{"role":"assistant"}]}`} {
		resp := postChat(context.Background(), t, ScenarioURL(base, "parallel"), b)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	var got []JournalEntry
	dec := json.NewDecoder(&journal)
	for dec.More() {
		var e JournalEntry
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	miss := "scenario \"parallel\": request 4 (POST /v1/chat/completions): no unused recorded interaction matches the request; nearest unused is interaction 3 of 3 (-recorded +sent):\n"
	want := []JournalEntry{
		{Seq: 1, Case: "parallel", Method: "POST", Path: "/v1/chat/completions", Model: "parallel", Turn: 1, Status: 200, From: "parallel interaction 1", Request: json.RawMessage(turn1Body)},
		{Seq: 2, Case: "parallel", Method: "POST", Path: "/v1/chat/completions", Model: "parallel", Turn: 2, Status: 200, From: "parallel interaction 2", Fault: "reset@2", Request: json.RawMessage(turn2Body)},
		{Seq: 3, Case: "parallel", Method: "POST", Path: "/v1/chat/completions", Model: "parallel", Turn: 4, Status: 404, Error: miss, Diff: "(whole diff)",
			Request: json.RawMessage(`{"model":"parallel","messages":[{"role":"assistant"},{"role":"assistant"},{"role":"assistant"}]}`)},
	}
	opts := cmp.Options{
		cmpopts.IgnoreUnexported(JournalEntry{}),
		// The miss's diff is tested elsewhere; here only its head.
		cmp.Transformer("head", func(e JournalEntry) JournalEntry {
			if head, _, ok := strings.Cut(e.Error, "\n"); ok {
				e.Error = head + "\n"
			}
			if e.Diff != "" {
				e.Diff = "(whole diff)"
			}
			return e
		}),
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("journal (-want +got):\n%s", diff)
	}
}

func TestServeRefusesAnOversizedBody(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel")}
	base := serveOn(t, &Server{Route: router.Route})
	// A reader of unknown length: the body goes chunked, with no Content-Length.
	body := io.MultiReader(strings.NewReader("{"), io.LimitReader(zeros{}, MaxRequestBody))
	resp, err := http.Post(base+"/chat/completions", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	want := `{"error":{"code":"request_too_large","message":"cannot read the request body: the body is too large: over 33554432 bytes (agentvcr serve -max-body)","type":"invalid_request_error"}}` + "\n"
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(got) != want {
		t.Errorf("%d %s\nwant 413 %s", resp.StatusCode, got, want)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
