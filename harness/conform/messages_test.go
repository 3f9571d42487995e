package conform

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/messages"
)

func TestMessagesAgentsFailExactlyTheirCases(t *testing.T) {
	// reachesResults are the cases whose conversation reaches the tool
	// results with the test agents: every benign quirk, the thinking echo,
	// and the 429 they wait out (they give up on a 500, a stall and a reset).
	var reachesResults []string
	for _, c := range MessagesCases() {
		if c.Expect == ExpectSame || c.Expect == ExpectEcho || c.Fault == Fault429 {
			reachesResults = append(reachesResults, c.ID)
		}
	}
	if len(reachesResults) != 23 {
		t.Fatalf("%d cases reach the tool results, want the clean turn, 20 benign quirks, the echo and the 429: %v", len(reachesResults), reachesResults)
	}
	checkAgents(t, messagesFormat, []agentCase{
		{reason: "a correct Messages agent that waits out a 429 passes every case",
			mode: msgAgentGood, want: map[Status][]string{}},
		{reason: "a text block before the tool_result blocks of the next user message: every case whose turn reaches the tool results",
			mode: msgAgentTextFirst, want: map[Status][]string{Failure: reachesResults},
			first: `request 2: call "toolu_5a835e4c99b1f67100000000" (read_file) has no tool message before message 3 (user); conform stopped the agent there`},
		{reason: "each tool_use input re-sent as a JSON string instead of an object: every case whose turn reaches the tool results",
			mode: msgAgentStringArgs, want: map[Status][]string{Failure: reachesResults}},
		{reason: "the text block re-sent after the tool_use blocks: every case whose turn reaches the tool results",
			mode: msgAgentTextLast, want: map[Status][]string{Failure: reachesResults},
			first: "request 2: the assistant message has text after its tool_use blocks; the Messages API answers 400: send the text first; conform stopped the agent there"},
		{reason: "blocks kept in arrival order and addressed by the stream's index (an index from 1, a text block streamed after the calls, a thinking block at 0, every block at 0), an input only in content_block_start lost, message_start's content not read, stop_reason max_tokens ignored, and no thinking kept to send back",
			mode: msgAgentPositional, want: map[Status][]string{
				Failure: {"messages_start_input_only", "messages_index_from_1", "messages_text_after_tool_use",
					"messages_all_index_0", "messages_prefilled_start", "messages_max_tokens_cut", "messages_echo_thinking"}},
			echo: "request 2: the tool-call turn does not send back its thinking block (Anthropic answers 400 when thinking is on)"},
	})
}

func TestReadMessages(t *testing.T) {
	tests := []struct {
		reason string
		body   string
		want   []Message
	}{
		{reason: "string content is one message; system is not a message",
			body: `{"system":"s","messages":[{"role":"user","content":"hi"}]}`,
			want: []Message{{Role: "user", Text: "hi"}}},
		{reason: "tool_use blocks are the assistant's calls, their input as JSON text; text and thinking join",
			body: `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"x"},{"type":"text","text":"a"},{"type":"tool_use","id":"t1","name":"grep","input":{"pattern":"p"}},{"type":"text","text":"b"}]}]}`,
			want: []Message{{Role: "assistant", Text: "ab", Reasoning: "hm", Calls: []Call{{ID: "t1", Name: "grep", Arguments: `{"pattern":"p"}`}}, TextAfterCalls: true,
				Signatures: []string{"x"}, ThinkingFirst: true}}},
		{reason: "a thinking block after the text is not first",
			body: `{"messages":[{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"hm","signature":"x"},{"type":"tool_use","id":"t1","name":"grep","input":{}}]}]}`,
			want: []Message{{Role: "assistant", Text: "a", Reasoning: "hm", Signatures: []string{"x"}, Calls: []Call{{ID: "t1", Name: "grep", Arguments: `{}`}}}}},
		{reason: "text before the calls is not text after them",
			body: `{"messages":[{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t1","name":"grep","input":{}}]}]}`,
			want: []Message{{Role: "assistant", Text: "a", Calls: []Call{{ID: "t1", Name: "grep", Arguments: `{}`}}}}},
		{reason: "a user message is its blocks in order: one tool message per tool_result (its content the text, a string or text blocks), one user message per run of text",
			body: `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"tool_result","tool_use_id":"t2"},` +
				`{"type":"tool_result","tool_use_id":"t3","content":[{"type":"text","text":"c"},{"type":"text","text":"d"}]}]}]}`,
			want: []Message{{Role: "tool", CallID: "t1", Text: "ok"}, {Role: "user", Text: "ab"}, {Role: "tool", CallID: "t2"}, {Role: "tool", CallID: "t3", Text: "cd"}}},
		{reason: "text before the tool_result blocks comes first",
			body: `{"messages":[{"role":"user","content":[{"type":"text","text":"here"},{"type":"tool_result","tool_use_id":"t1"}]}]}`,
			want: []Message{{Role: "user", Text: "here"}, {Role: "tool", CallID: "t1"}}},
	}
	for _, tt := range tests {
		r, err := messagesFormat.Read([]byte(tt.body))
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if diff := cmp.Diff(tt.want, r.Messages); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
		}
	}
	for _, bad := range []string{`{"messages":[{"role":"user","content":7}]}`, `{"model":"m"}`, `[`} {
		if _, err := messagesFormat.Read([]byte(bad)); !errors.Is(err, ErrNotARequest) {
			t.Errorf("%s: got %v, want ErrNotARequest", bad, err)
		}
	}
}

func TestReadMessagesTools(t *testing.T) {
	r, err := messagesFormat.Read([]byte(`{"model":"m","stream":true,"messages":[],"tools":` + string(testMessagesTools) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	checkTestTools(t, r)
}

// checkTestTools checks a request read from model "m", streamed, offering
// the test agents' three tools (write_file, read_file, grep) and no other.
func checkTestTools(t *testing.T, r Request) {
	t.Helper()
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name+" "+string(tool.Schema)[:15])
	}
	want := []string{`write_file {"type":"object`, `read_file {"type":"object`, `grep {"type":"object`}
	if diff := cmp.Diff(want, names); diff != "" || r.Model != "m" || !r.Streams {
		t.Errorf("tools (-want +got):\n%s\nmodel %q, stream %v", diff, r.Model, r.Streams)
	}
}

// An agent that posts its first case to another format's path (a chat
// agent under -api messages, a Messages agent under -api chat, ...) ends
// the run at once with ErrWrongPath, naming the path and the -api that
// speaks it: no case could pass. A case that is not the first fails alone.
func TestWrongFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		mode   string
		format Format
		want   string
	}{
		{reason: "a chat agent under -api messages", mode: agentGood, format: messagesFormat,
			want: "request on another format's path: conform runs -api messages, which posts to .../v1/messages, and the agent posted to /v1/chat/completions (-api chat speaks that format)"},
		{reason: "a Messages agent under -api chat", mode: msgAgentGood, format: chatFormat,
			want: "request on another format's path: conform runs -api chat, which posts to .../v1/chat/completions, and the agent posted to /v1/messages (-api messages speaks that format)"},
		{reason: "a Responses agent under -api chat", mode: respAgentGood, format: chatFormat,
			want: "request on another format's path: conform runs -api chat, which posts to .../v1/chat/completions, and the agent posted to /v1/responses (-api responses speaks that format)"},
		{reason: "a chat agent under -api responses", mode: agentGood, format: responsesFormat,
			want: "request on another format's path: conform runs -api responses, which posts to .../v1/responses, and the agent posted to /v1/chat/completions (-api chat speaks that format)"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(tt.mode), Format: tt.format, Timeout: slow * 10 * time.Second})
		if !errors.Is(err, ErrWrongPath) || err.Error() != tt.want {
			t.Errorf("%s: Run: %v\nwant %s", tt.reason, err, tt.want)
		}
	}
	alone, err := SelectCases(MessagesCases(), []string{"messages_crlf"})
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentGood), Format: messagesFormat, Cases: alone, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := "FAILURE: request 1: " + tests[0].want
	if got := string(results[0].Status) + ": " + results[0].Details; got != want {
		t.Errorf("a case that is not the first: %s\nwant %s", got, want)
	}
}

// A stall or reset on a Messages stream breaks it inside the second call,
// after its first non-empty partial_json, as on a chat stream.
func TestMessagesCutPoint(t *testing.T) {
	conv := probeFor(t, messagesFormat, `{"model":"m","stream":true,"messages":[],"tools":`+string(testMessagesTools)+`}`)
	events := sse.Parse(conv.turns[0])
	n, err := messagesCutPoint(events)
	if err != nil {
		t.Fatal(err)
	}
	last := events[n-1].Data
	if !strings.Contains(last, `"type":"content_block_delta","index":2,`) || strings.Contains(last, `"partial_json":""`) {
		t.Errorf("the cut keeps %d of %d events, the last %s; want the first non-empty piece of block 2 (the second call)", n, len(events), last)
	}
	if _, err := messages.Merge(strings.NewReader(string(sse.Format(events[:n], "\n")))); !errors.Is(err, agent.ErrTruncatedStream) {
		t.Errorf("the cut stream merges with %v, want ErrTruncatedStream", err)
	}
	if _, err := messagesCutPoint(sse.Parse(conv.turns[1])); !errors.Is(err, quirk.ErrNotApplicable) {
		t.Errorf("the conclusion has no call: got %v, want ErrQuirkNotApplicable", err)
	}
}

// messages_echo_thinking's stream merges into the clean turn plus one
// thinking block with its signature; a stream with no message_start is
// left alone.
func TestAddThinkingBlock(t *testing.T) {
	conv := probeFor(t, messagesFormat, `{"model":"m","stream":true,"messages":[],"tools":`+string(testMessagesTools)+`}`)
	clean, err := messages.Merge(strings.NewReader(string(conv.turns[0])))
	if err != nil {
		t.Fatal(err)
	}
	body, err := addThinkingBlock(conv.turns[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := messages.Merge(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	want := *clean
	want.Thinking = []agent.Thinking{{Type: agent.ThinkingText, Text: probeReasoning, Signature: probeSignature}}
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("turn (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(body), "event: content_block_start\ndata: {\"content_block\":{\"signature\":\"\",\"thinking\":\"\",\"type\":\"thinking\"},\"index\":0,") {
		t.Errorf("no thinking block at index 0 in\n%s", body)
	}
	if _, err := addThinkingBlock([]byte("data: {\"choices\":[]}\n\ndata: [DONE]\n\n"), 0); !errors.Is(err, quirk.ErrNotApplicable) {
		t.Errorf("a chat stream: %v, want ErrQuirkNotApplicable", err)
	}
}
