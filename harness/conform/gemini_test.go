package conform

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/wire"
)

// conform speaks every format of package wire, in its order.
func TestFormatsFollowWire(t *testing.T) {
	var got []string
	for _, f := range Formats() {
		got = append(got, f.Name)
	}
	if strings.Join(got, ",") != strings.Join(wire.Names(), ",") {
		t.Errorf("Formats() = %v, wire.Names() = %v", got, wire.Names())
	}
	if _, err := FormatByName("vertex"); !errors.Is(err, ErrUnknownFormat) || err.Error() != `unknown wire format "vertex": want chat, messages, responses, gemini` {
		t.Errorf("FormatByName(vertex) = %v", err)
	}
}

// A Gemini agent that classifies first (the side request, answered with
// the schema's object and not judged) passes the clean turn, the benign
// quirks, the broken streams and the echo; one that drops the thought
// signatures fails the echo, naming the call.
func TestGeminiAgents(t *testing.T) {
	ids := []string{"gemini_clean", "gemini_call_ids_dropped", "gemini_args_split_name_first", "gemini_calls_across_events",
		"gemini_error_midstream", "gemini_malformed_function_call", "gemini_echo_signature"}
	cases, err := SelectCases(GeminiCases(), ids)
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), Options{Command: testAgentCommand(t, gemAgentGood), Format: geminiFormat, Cases: cases, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Status != Success {
			t.Errorf("%s: %s: %s", r.Case.ID, r.Status, r.Details)
		}
		if n := len(r.Requests); r.Case.Expect != ExpectBroken && n != 2 {
			t.Errorf("%s: %d requests judged, want the 2 turns (the side request is not one)", r.Case.ID, n)
		}
	}
	echo, _ := SelectCases(GeminiCases(), []string{"gemini_echo_signature"})
	results, err = Run(context.Background(), Options{Command: testAgentCommand(t, gemAgentNoSig), Format: geminiFormat, Cases: echo, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := "FAILURE: request 2: call 1 (read_file) does not send back its thoughtSignature on its functionCall part (Gemini answers 400)"
	if got := string(results[0].Status) + ": " + results[0].Details; got != want {
		t.Errorf("an agent that drops the signatures: %s\nwant %s", got, want)
	}
}

// An agent of one format run under the other stops the run after its
// first case, naming the path it posted to and the -api that speaks it:
// Gemini CLI's classifier under -api chat, a chat agent under -api gemini.
func TestGeminiWrongFormat(t *testing.T) {
	tests := []struct {
		mode   string
		format Format
		want   string
	}{
		{gemAgentGood, chatFormat, "request on another format's path: conform runs -api chat, which posts to .../v1/chat/completions, and the agent posted to /v1beta/models/test-lite:generateContent (-api gemini speaks that format)"},
		{agentGood, geminiFormat, "request on another format's path: conform runs -api gemini, which posts to .../v1beta/models/test-model:streamGenerateContent, and the agent posted to /v1/chat/completions (-api chat speaks that format)"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), Options{Command: testAgentCommand(t, tt.mode), Format: tt.format, Timeout: slow * 10 * time.Second})
		if !errors.Is(err, ErrWrongPath) || err.Error() != tt.want {
			t.Errorf("%s under -api %s: Run: %v\nwant %s", tt.mode, tt.format.Name, err, tt.want)
		}
	}
}

// The side answer is the schema's object, strings, numbers and booleans
// filled in; without a schema, an empty object; a streamed turn is no side
// request.
func TestAnswerSide(t *testing.T) {
	tests := []struct {
		path, body, want string
		ok               bool
	}{
		{"/v1beta/models/lite:generateContent", classifierBody,
			`{"candidates":[{"content":{"parts":[{"text":"{\"complexity_reasoning\":\"conform: a short answer to a side request\",\"complexity_score\":1}"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"candidatesTokenCount":1,"promptTokenCount":1,"totalTokenCount":2}}`, true},
		{"/v1beta/models/lite:generateContent", `{"generationConfig":{"responseSchema":{"type":"OBJECT","properties":{"ok":{"type":"BOOLEAN"},"tags":{"type":"ARRAY","items":{"type":"STRING","enum":["a","b"]}}}}}}`,
			`{"candidates":[{"content":{"parts":[{"text":"{\"ok\":false,\"tags\":[\"a\"]}"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"candidatesTokenCount":1,"promptTokenCount":1,"totalTokenCount":2}}`, true},
		{"/v1beta/models/lite:generateContent", `{"contents":[]}`,
			`{"candidates":[{"content":{"parts":[{"text":"{}"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"candidatesTokenCount":1,"promptTokenCount":1,"totalTokenCount":2}}`, true},
		{"/v1beta/models/m:streamGenerateContent", classifierBody, "", false},
	}
	for _, tt := range tests {
		r, ok := answerSide(geminiFormat, tt.path, []byte(tt.body))
		if ok != tt.ok || string(r.Body) != tt.want || (ok && r.Header.Get("Content-Type") != "application/json") {
			t.Errorf("%s %s: %v %s\nwant %v %s", tt.path, tt.body, ok, r.Body, tt.ok, tt.want)
		}
	}
	if _, ok := answerSide(chatFormat, "/v1beta/models/lite:generateContent", nil); ok {
		t.Error("chat has no side requests")
	}
}
