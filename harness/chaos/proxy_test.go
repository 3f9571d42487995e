package chaos_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/chaos"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/internal/racetest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/eventstream"
)

// The proxy in front of the project's scripted gateway (on loopback: no
// live provider is reachable from here), with our own agent's loop as its
// client.

// gatewayKey is long enough that the recordings' secret scan finds it only
// where it is.
const gatewayKey = "sk-chaos-test-key-0123456789abcdef"

// upstreamOf is what a user passes as -upstream for format f's provider:
// the base URL with /v1 for the formats whose paths carry it, the root for
// the one whose path starts elsewhere (Gemini's /v1beta).
func upstreamOf(f *agent.Format, gatewayV1 string) string {
	if strings.Contains(f.Path("m"), "/v1/") {
		return gatewayV1
	}
	return strings.TrimSuffix(gatewayV1, "/v1")
}

// startProxy serves a recording proxy to upstream on loopback, with c in
// front unless c is nil, and returns the client's root URL and a function
// that stops it and returns the recording's SSE answers.
func startProxy(t *testing.T, upstream string, c *chaos.Chaos) (string, func() []string) {
	root, stop := startRecording(t, upstream, c)
	return root, func() []string {
		answers, _ := stop()
		return answers
	}
}

// startRecording is startProxy whose stop also returns the recording.
func startRecording(t *testing.T, upstream string, c *chaos.Chaos) (string, func() ([]string, []byte)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	var log bytes.Buffer
	p, err := record.NewProxy(upstream, path, nil, &log)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = p
	if c != nil {
		h = c.Handler(p)
	}
	srv := httptest.NewServer(h) // 127.0.0.1
	return srv.URL, func() ([]string, []byte) {
		srv.Close()
		if err := p.Stop(); errors.Is(err, cassette.ErrEmptyRecording) {
			return nil, nil // every request was refused (a 429 or 500 fault)
		} else if err != nil {
			t.Fatalf("%v (proxy log: %s)", err, log.String())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := cassette.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, i := range rec.Interactions {
			if ct := i.Response.Headers.Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") || eventstream.IsMediaType(ct) {
				out = append(out, i.Response.Body)
			}
		}
		return out, data
	}
}

// newSandbox writes the demo's files in a fresh folder for our agent to
// work in: its tools only read, so the runs of a test share one.
func newSandbox(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := demo.WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runAgent runs our agent's loop on the sandbox dir as script's model, in
// format f, against the server at root, its requests through hc (nil: the
// default client), and returns the conversation.
func runAgent(ctx context.Context, t *testing.T, dir string, f *agent.Format, root, script string, hc *http.Client) ([]agent.Message, error) {
	t.Helper()
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	loop := agent.Loop{Client: &agent.Client{BaseURL: wire.BaseURL(f, root), Model: script, APIKey: gatewayKey, Format: f, HTTPClient: hc},
		Tools: tools.Default(ws, tools.ZH)}
	return loop.Run(ctx, []agent.Message{
		{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.ZH)},
		{Role: agent.RoleUser, Content: demo.Prompt(tools.ZH)},
	})
}

// transcript is what a benign quirk must leave as it was: every message's
// role and text, each call's name and arguments, each tool result (ids may
// differ when a quirk drops them; thinking is not compared).
func transcript(msgs []agent.Message) []string {
	var out []string
	for _, m := range msgs {
		line := m.Role + ": " + m.Content
		for _, c := range m.ToolCalls {
			line += fmt.Sprintf(" [%s %s]", c.Function.Name, c.Function.Arguments)
		}
		out = append(out, line)
	}
	return out
}

// logicalOf is an answer of f as its events: unframed for a framed format.
func logicalOf(f *agent.Format, body string) string {
	b, _ := io.ReadAll(f.LogicalStream(strings.NewReader(body)))
	return string(b)
}

// dataOf is what an answer's events carry, each data as JSON when it is.
func dataOf(body string) []any {
	var out []any
	for _, ev := range sse.Parse([]byte(body)) {
		if !ev.HasData {
			continue
		}
		var v any
		if json.Unmarshal([]byte(ev.Data), &v) != nil {
			v = ev.Data
		}
		out = append(out, v)
	}
	return out
}

// TestProxyEveryQuirk: for every format and every quirk it takes, our
// agent runs the demo and the parallel conversations through the chaos
// proxy in front of the scripted gateway. Under a benign quirk it ends
// with the same transcript (answers, calls, tool results) as without the
// proxy; under any quirk, what the proxy recorded as received is, answer
// by answer, what the quirk's Apply makes of the clean answer (over real
// HTTP pieces, so the streaming form meets the whole-body one again), or
// the clean answer's events where the quirk does not apply.
func TestProxyEveryQuirk(t *testing.T) {
	gw := gateway.New(gatewayKey, demo.Scripts(tools.ZH)...)
	gwURL, stop := gw.Start()
	defer stop()
	ctx := context.Background()
	sandbox := newSandbox(t)
	const seed = 1
	for _, f := range wire.All() {
		upstream := upstreamOf(f, gwURL)
		for _, script := range []string{demo.ScriptDemo, demo.ScriptParallel} {
			root, clean := startProxy(t, upstream, nil)
			msgs, err := runAgent(ctx, t, sandbox, f, root, script, nil)
			if err != nil {
				t.Fatalf("%s %s without quirk: %v", f.Name, script, err)
			}
			want, answers := transcript(msgs), clean()
			if len(answers) < 2 {
				t.Fatalf("%s %s: %d answers recorded, want a tool turn and an answer", f.Name, script, len(answers))
			}
			var changed atomic.Int32
			t.Run(f.Name+"/"+script, func(t *testing.T) { // returns when its parallel subtests have
				for _, q := range quirk.All() {
					// a route's answers take the carried format's quirks
					// too (on Bedrock, through the framing)
					carried := f.Carries != nil && q.API == f.Carries.Name
					if q.API != "" && q.API != f.Name && !carried {
						continue
					}
					if f.Framing != nil && q.API == "" {
						continue // the SSE lines' own quirks: a framed answer has no lines
					}
					t.Run(q.Name, func(t *testing.T) {
						t.Parallel()
						root, received := startProxy(t, upstream, &chaos.Chaos{Quirk: &q, Seed: seed})
						msgs, err := runAgent(ctx, t, sandbox, f, root, script, nil)
						got := received()
						if q.Benign {
							if err != nil {
								t.Fatalf("a benign quirk through the proxy: %v", err)
							}
							if diff := cmp.Diff(want, transcript(msgs)); diff != "" {
								t.Errorf("transcript through the proxy (-without +with quirk):\n%s", diff)
							}
						} else {
							got = got[:1] // the conversation goes elsewhere after a broken answer
						}
						for n, body := range got {
							whole, err := q.Apply([]byte(answers[n]), seed+int64(n))
							if f.Framing != nil && carried {
								// the carried format's quirk edits the events: framed again after
								whole, err = q.Apply([]byte(logicalOf(f, answers[n])), seed+int64(n))
								whole = sse.Framed(f, whole)
							}
							switch {
							case errors.Is(err, quirk.ErrNotApplicable):
								if diff := cmp.Diff(dataOf(logicalOf(f, answers[n])), dataOf(logicalOf(f, body))); diff != "" {
									t.Errorf("answer %d: the quirk does not apply, yet the agent got (-clean +received):\n%s", n+1, diff)
								}
							case err != nil:
								t.Fatalf("answer %d: Apply: %v", n+1, err)
							case string(whole) != body:
								t.Errorf("answer %d: the agent got (-Apply +received):\n%s", n+1, cmp.Diff(string(whole), body))
							case body != answers[n]:
								changed.Add(1)
							}
						}
					})
				}
			})
			if changed.Load() == 0 {
				t.Errorf("%s %s: no quirk changed any answer", f.Name, script)
			}
		}
	}
}

// TestProxyFaultsAreServes: a fault through the proxy gives our agent what
// the same fault gives it under agentvcr serve replaying the same
// conversation: the same messages, then the same error (URLs aside).
func TestProxyFaultsAreServes(t *testing.T) {
	gw := gateway.New(gatewayKey, demo.Scripts(tools.ZH)...)
	gwURL, stop := gw.Start()
	t.Cleanup(stop) // after the parallel subtests
	sandbox := newSandbox(t)
	for _, f := range wire.All() {
		upstream := upstreamOf(f, gwURL)
		root, recorded := startRecording(t, upstream, nil)
		if _, err := runAgent(context.Background(), t, sandbox, f, root, demo.ScriptDemo, nil); err != nil {
			t.Fatal(err)
		}
		_, data := recorded()
		for _, spec := range []string{"429", "500@2", "error-event:2", "error-event:0@2", "reset:1@2", "stall:2@1", "reset:99"} {
			t.Run(f.Name+"/"+spec, func(t *testing.T) {
				t.Parallel() // the stalls and retries wait on timers, not the CPU
				fault, err := serve.ParseFault(spec)
				if err != nil {
					t.Fatal(err)
				}
				router := &serve.CassetteRouter{Cassettes: []serve.ServedCassette{{Name: "demo", Data: data}}, Fault: fault}
				served, stopServe, err := (&serve.Server{Route: router.Route}).Start("127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer stopServe()
				served = strings.TrimSuffix(served, "/v1")
				proxied, received := startProxy(t, upstream, &chaos.Chaos{Fault: fault})
				defer received()
				run := func(root string) ([]string, string) {
					var hc *http.Client
					if fault.Kind == serve.FaultStall {
						// The client gives up on the stall (at turn 1: nothing else runs
						// before it) when no event came for a while: its error says the
						// stream stalled, so the stall was reached. Both servers write
						// the rest of a stream at once, so only the stall is that silent.
						hc = &http.Client{Transport: &agent.LiveTransport{IdleTimeout: racetest.Slow * 300 * time.Millisecond}}
					}
					ctx, cancel := context.WithTimeout(context.Background(), racetest.Slow*time.Minute) // a stall nobody gives up on fails, not hangs
					defer cancel()
					msgs, err := runAgent(ctx, t, sandbox, f, root, demo.ScriptDemo, hc)
					if err == nil {
						return transcript(msgs), "no error"
					}
					return transcript(msgs), strings.ReplaceAll(err.Error(), root, "ROOT")
				}
				wantMsgs, wantErr := run(served)
				gotMsgs, gotErr := run(proxied)
				if wantErr == "no error" && spec != "reset:99" {
					t.Fatalf("serve -fault %s gives no error", spec)
				}
				if gotErr != wantErr {
					t.Errorf("error through the proxy:\n  %s\nunder serve:\n  %s", gotErr, wantErr)
				}
				if diff := cmp.Diff(wantMsgs, gotMsgs); diff != "" {
					t.Errorf("messages (-serve +proxy):\n%s", diff)
				}
			})
		}
	}
}
