package messages

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/google/go-cmp/cmp"
)

// messagesServer answers /v1/messages with the streams given, in order, and
// refuses (400) a request whose body breaks the Messages invariants, as the
// API does. It records the decoded requests.
func messagesServer(t *testing.T, streams ...string) (*agent.Client, func() []agent.DecodedRequest) {
	var mu sync.Mutex
	var got []agent.DecodedRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, err := Decode(body)
		mu.Lock()
		n := len(got)
		got = append(got, req)
		mu.Unlock()
		if err != nil {
			t.Errorf("request %d refused: %v", n+1, err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, streams[n])
	}))
	t.Cleanup(srv.Close)
	c := &agent.Client{BaseURL: srv.URL, APIKey: "sk-ant-test", Model: "claude", HTTPClient: srv.Client(), Format: Format}
	return c, func() []agent.DecodedRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]agent.DecodedRequest(nil), got...)
	}
}

func messagesStream(t *testing.T, fixture string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/streams/" + fixture + ".sse")
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(data), `"name":"glob"`, `"name":"echo"`)
}

// The thinking blocks come back, signature and all, in the request after the
// turn that made the call; text sent after the tool_use goes before it; and
// the tool result is the first block of the next user message.
func TestLoopMessagesEchoesThinkingAndKeepsOrder(t *testing.T) {
	client, requests := messagesServer(t,
		messagesStream(t, "thinking_signature_then_tool_use"),
		messagesStream(t, "text_after_tool_use"),
		messagesStream(t, "end_turn_text_only"),
	)
	l := &agent.Loop{Client: client, Tools: streamtest.Tools(t, tools.EN, nil)}
	msgs, err := l.Run(context.Background(), streamtest.Start())
	if err != nil {
		t.Fatal(err)
	}
	reqs := requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	second := reqs[1].Messages
	wantThinking := []agent.Thinking{
		{Type: agent.ThinkingText, Text: "The tests are red; find them first.", Signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},
		{Type: agent.ThinkingRedacted, Data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"},
	}
	if diff := cmp.Diff(wantThinking, second[2].Thinking); diff != "" {
		t.Errorf("thinking echoed in request 2 (-want +got):\n%s", diff)
	}
	body, err := Body("claude", msgs[:len(msgs)-1], nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"text","text":"Let me look for the tests. Then I will read it."},{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"echo","input":{"pattern":"**/*.js"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A09q90qw90lq917835lq9",`
	if !strings.Contains(string(body), want) {
		t.Errorf("request 3 body lacks text-before-tool_use and result-first:\n%s", body)
	}
	if got := msgs[len(msgs)-1].Content; got != "测试红的原因：divide(1, 0) 没有抛错。" {
		t.Errorf("final answer = %q", got)
	}
}

// A stream error after HTTP 200, with a partial call, adds nothing: the
// messages returned make a valid next request (no tool_use left without its
// tool_result, the 400 anomalyco/opencode #5750 hit).
func TestLoopMessagesErrorDropsPartialCall(t *testing.T) {
	for _, fixture := range []string{"error_overloaded_partial_call", "cut_before_message_stop"} {
		client, _ := messagesServer(t, messagesStream(t, "clean_text_then_tool_use"), messagesStream(t, fixture))
		l := &agent.Loop{Client: client, Tools: streamtest.Tools(t, tools.EN, nil)}
		msgs, err := l.Run(context.Background(), streamtest.Start())
		var se *agent.StreamError
		if !errors.As(err, &se) && !errors.Is(err, agent.ErrTruncatedStream) {
			t.Errorf("%s: error = %v", fixture, err)
		}
		if len(msgs) != 4 || msgs[3].Role != agent.RoleTool {
			t.Errorf("%s: %d messages, last %+v; want the first turn's 4", fixture, len(msgs), msgs[len(msgs)-1])
		}
		if err := Check(msgs); err != nil {
			t.Errorf("%s: messages after the error: %v", fixture, err)
		}
	}
}
