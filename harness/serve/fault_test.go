package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// recordedEvents returns the SSE events of a base cassette's n-th
// (1-based) response, as recorded.
func recordedEvents(t *testing.T, name string, n int) [][]byte {
	t.Helper()
	c := vcr.New("")
	if err := yaml.Unmarshal(servedCassettes(t, name)[0].Data, c); err != nil {
		t.Fatal(err)
	}
	return sse.SplitEvents([]byte(c.Interactions[n-1].Response.Body))
}

// post sends a chat-completions body and returns the response.
func postChat(ctx context.Context, t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

const (
	turn1Body = `{"model":"parallel","messages":[{"role":"user","content":"any"}],"stream":true}`
	turn2Body = `{"model":"parallel","messages":[{"role":"user","content":"any"},{"role":"assistant","content":"x"}],"stream":true}`
)

// faultServer serves the parallel cassette by turn under a fault.
func faultServer(t *testing.T, fault string) string {
	t.Helper()
	f, err := ParseFault(fault)
	if err != nil {
		t.Fatal(err)
	}
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel"), Match: MatchTurn, Fault: f}
	return serveOn(t, &Server{Route: router.Route})
}

func TestServeFaultStatuses(t *testing.T) {
	clean := string(bytes.Join(recordedEvents(t, "parallel", 1), nil))
	clean2 := string(bytes.Join(recordedEvents(t, "parallel", 2), nil))
	type answer struct {
		Status     int
		RetryAfter string
		Body       string
	}
	rate := answer{429, "1", `{"error":{"code":"rate_limit_exceeded","message":"agentvcr fault: rate limited; retry after the Retry-After header's seconds","type":"invalid_request_error"}}` + "\n"}
	failed := answer{500, "", `{"error":{"code":"server_error","message":"agentvcr fault: the server failed","type":"invalid_request_error"}}` + "\n"}
	tests := []struct {
		reason, fault string
		bodies        []string
		want          []answer
	}{
		{"429 refuses each request's first attempt, then serves it", "429", []string{turn1Body, turn1Body, turn2Body, turn2Body},
			[]answer{rate, {200, "", clean}, rate, {200, "", clean2}}},
		{"429:3@2 refuses turn 2 only, with Retry-After 3", "429:3@2", []string{turn1Body, turn2Body, turn2Body},
			[]answer{{200, "", clean}, {429, "3", rate.Body}, {200, "", clean2}}},
		{"500 fails every attempt", "500", []string{turn1Body, turn1Body},
			[]answer{failed, failed}},
		{"500@2 fails turn 2 only", "500@2", []string{turn1Body, turn2Body},
			[]answer{{200, "", clean}, failed}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			base := faultServer(t, tt.fault)
			var got []answer
			for _, b := range tt.bodies {
				resp := postChat(context.Background(), t, base, b)
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, answer{resp.StatusCode, resp.Header.Get("Retry-After"), string(body)})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServeFaultResetClosesMidStream(t *testing.T) {
	events := recordedEvents(t, "parallel", 1)
	resp := postChat(context.Background(), t, faultServer(t, "reset:4"), turn1Body)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("status %d, read error %v; want 200 and an unexpected EOF", resp.StatusCode, err)
	}
	if diff := cmp.Diff(string(bytes.Join(events[:4], nil)), string(body)); diff != "" {
		t.Errorf("bytes before the reset (-recorded +got):\n%s", diff)
	}
}

func TestServeFaultErrorEventInside200(t *testing.T) {
	events := recordedEvents(t, "parallel", 1)
	base := faultServer(t, "error-event")
	resp := postChat(context.Background(), t, base, turn1Body)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("status %d, read error %v; want 200 and a clean end", resp.StatusCode, err)
	}
	want := string(bytes.Join(events[:DefaultFaultAfter], nil)) + chat.Format.ErrorEvent
	if diff := cmp.Diff(want, string(body)); diff != "" {
		t.Errorf("stream (-want +got):\n%s", diff)
	}
	// Our client reads it as the gateway's error, not as a finished turn.
	c := &agent.Client{BaseURL: base, Model: "parallel", Format: chat.Format}
	_, err = c.Complete(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "any"}}, nil)
	var streamErr *agent.StreamError
	if !errors.As(err, &streamErr) {
		t.Errorf("Complete: %v, want a *agent.StreamError", err)
	}
}

func TestServeFaultStallKeepsSilentUntilTheClientGoes(t *testing.T) {
	events := recordedEvents(t, "parallel", 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postChat(ctx, t, faultServer(t, "stall:2"), turn1Body)
	defer resp.Body.Close()
	want := string(bytes.Join(events[:2], nil))
	got := make([]byte, len(want))
	if _, err := io.ReadFull(resp.Body, got); err != nil || string(got) != want {
		t.Fatalf("first events: %q, %v; want %q", got, err, want)
	}
	more := make(chan error, 1)
	go func() {
		n, err := resp.Body.Read(make([]byte, 1))
		if n > 0 {
			err = errors.New("a byte arrived after the stall began")
		}
		more <- err
	}()
	select {
	case err := <-more:
		t.Fatalf("the stream went on after 2 events: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	cancel() // the client gives up
	if err := <-more; !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
}

func TestServeStreamsWhatWasRecorded(t *testing.T) {
	clean := string(bytes.Join(recordedEvents(t, "parallel", 1), nil))
	for _, tt := range []struct {
		reason string
		route  *CassetteRouter
	}{
		{"paced", &CassetteRouter{Pace: time.Millisecond}},
		{"re-chunked a byte at a time", &CassetteRouter{Rechunk: rechunk.Cutter{Mode: rechunk.Bytes}}},
		{"re-chunked at random", &CassetteRouter{Rechunk: rechunk.Cutter{Mode: rechunk.Random, Seed: 7}}},
		{"coalesced", &CassetteRouter{Coalesce: true}},
	} {
		t.Run(tt.reason, func(t *testing.T) {
			router := tt.route
			router.Cassettes, router.Match = servedCassettes(t, "parallel"), MatchTurn
			resp := postChat(context.Background(), t, serveOn(t, &Server{Route: router.Route}), turn1Body)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("read: %v, Content-Type %q", err, resp.Header.Get("Content-Type"))
			}
			if diff := cmp.Diff(clean, string(body)); diff != "" {
				t.Errorf("body (-recorded +got):\n%s", diff)
			}
		})
	}
}

func TestParseFault(t *testing.T) {
	tests := []struct {
		reason, in string
		want       Fault
		err        string
	}{
		{"no fault", "", Fault{}, ""},
		{"429 with the default Retry-After", "429", Fault{Kind: Fault429}, ""},
		{"429 with Retry-After 5 on turn 1", "429:5@1", Fault{Kind: Fault429, After: 5, Turn: 1}, ""},
		{"a stall after the default events", "stall", Fault{Kind: FaultStall}, ""},
		{"a stall before any event", "stall:0", Fault{Kind: FaultStall, After: -1}, ""},
		{"a reset after 7 events", "reset:7", Fault{Kind: FaultReset, After: 7}, ""},
		{"an error event on turn 2", "error-event@2", Fault{Kind: FaultErrorEvent, Turn: 2}, ""},
		{"unknown kind", "timeout", Fault{}, `bad fault "timeout": unknown kind "timeout" (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)`},
		{"500 with a number", "500:2", Fault{}, `bad fault "500:2": 500 takes no number (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)`},
		{"429 with no wait", "429:0", Fault{}, `bad fault "429:0": N must be a whole number (at least 1 for 429) (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)`},
		{"turn 0", "reset@0", Fault{}, `bad fault "reset@0": TURN must be 1 or more (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := ParseFault(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("fault (-want +got):\n%s", diff)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

// Coalesced writes still let a stall's first events through before the
// silence.
func TestServeCoalescedStallFlushesFirst(t *testing.T) {
	events := recordedEvents(t, "parallel", 1)
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel"), Match: MatchTurn, Coalesce: true, Fault: Fault{Kind: FaultStall, After: 2}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postChat(ctx, t, serveOn(t, &Server{Route: router.Route}), turn1Body)
	defer resp.Body.Close()
	want := string(bytes.Join(events[:2], nil))
	got := make([]byte, len(want))
	if _, err := io.ReadFull(resp.Body, got); err != nil || string(got) != want {
		t.Fatalf("first events: %q, %v; want %q", got, err, want)
	}
}

// The error-event fault speaks the format of the request it answers: a
// Messages or a Responses stream ends in that format's error event, which
// our client reads as the gateway's error.
func TestServeFaultErrorEventInEachFormat(t *testing.T) {
	tests := []struct {
		cassette string
		api      *agent.Format
		tail     string
		want     string // the client's error
	}{
		{"messages/demo", messages.Format, messages.Format.ErrorEvent,
			"stream error: agentvcr fault: the gateway failed mid-stream (type overloaded_error)"},
		{"responses/demo", responses.Format, responses.Format.ErrorEvent,
			"stream error: agentvcr fault: the gateway failed mid-stream (code server_error)"},
	}
	for _, tt := range tests {
		f, err := ParseFault("error-event")
		if err != nil {
			t.Fatal(err)
		}
		served := servedCassettes(t, tt.cassette)
		served[0].Name = "demo"
		router := &CassetteRouter{Cassettes: served, Match: MatchTurn, Fault: f}
		base := serveOn(t, &Server{Route: router.Route})
		root := wire.BaseURL(tt.api, strings.TrimSuffix(base, "/v1"))
		c := &agent.Client{BaseURL: root, APIKey: "any", Model: "demo", Format: tt.api}
		_, err = c.Complete(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "any"}}, nil)
		var streamErr *agent.StreamError
		if !errors.As(err, &streamErr) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Complete: %v, want a *agent.StreamError saying %q", tt.cassette, err, tt.want)
		}
	}
}

func TestIsSSEReplyWithoutHeader(t *testing.T) {
	for body, want := range map[string]bool{
		"data: {}\n\n":                       true,
		": keep-alive\n\n":                   true,
		"event: message_start\ndata: {}\n\n": true,
		"event: response.created\ndata: {}":  true,
		`{"error":{}}`:                       false,
		"":                                   false,
	} {
		if got := isSSEReply(Reply{Body: []byte(body)}); got != want {
			t.Errorf("isSSEReply(%q) = %v, want %v", body, got, want)
		}
	}
	h := http.Header{"Content-Type": {"application/json"}}
	if isSSEReply(Reply{Header: h, Body: []byte("data: {}\n\n")}) {
		t.Error("a reply whose Content-Type is JSON streams")
	}
	// a media type in any case, with parameters: a quirk route must rewrite it
	for _, ct := range []string{"Text/Event-Stream", "TEXT/EVENT-STREAM; charset=utf-8", "text/event-stream;charset=UTF-8"} {
		if !isSSEReply(Reply{Header: http.Header{"Content-Type": {ct}}, Body: []byte("data: {}\n\n")}) {
			t.Errorf("a reply whose Content-Type is %q does not stream", ct)
		}
	}
}
