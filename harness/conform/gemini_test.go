package conform

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/wire"
)

// conform speaks every format of package wire, in its order, and names
// them all when asked for one it does not know.
func TestFormatsFollowWireNames(t *testing.T) {
	var got []string
	for _, f := range Formats() {
		got = append(got, f.Name)
	}
	if strings.Join(got, ",") != strings.Join(wire.Names(), ",") {
		t.Errorf("Formats() = %v, wire.Names() = %v", got, wire.Names())
	}
	if _, err := FormatByName("vertex"); !errors.Is(err, ErrUnknownFormat) || err.Error() != `unknown wire format "vertex": want chat, messages, responses, gemini, bedrock, vertex-anthropic, converse` {
		t.Errorf("FormatByName(vertex) = %v", err)
	}
}

// A Gemini agent that classifies first (the side request, answered with
// the schema's object and not judged) passes the clean turn, the benign
// quirks, the broken streams and the echo; one that drops the thought
// signatures fails the echo, naming the call.
func TestGeminiAgents(t *testing.T) {
	t.Parallel()
	ids := []string{"gemini_clean", "gemini_call_ids_dropped", "gemini_args_split_name_first", "gemini_calls_across_events",
		"gemini_error_midstream", "gemini_malformed_function_call", "gemini_echo_signature"}
	cases, err := SelectCases(GeminiCases(), ids)
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(gemAgentGood), Format: geminiFormat, Cases: cases, Timeout: slow * 10 * time.Second})
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
	results, err = Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(gemAgentNoSig), Format: geminiFormat, Cases: echo, Timeout: slow * 10 * time.Second})
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
	t.Parallel()
	tests := []struct {
		mode   string
		format Format
		want   string
	}{
		{gemAgentGood, chatFormat, "request on another format's path: conform runs -api chat, which posts to .../v1/chat/completions, and the agent posted to /v1beta/models/test-lite:generateContent (-api gemini speaks that format)"},
		{agentGood, geminiFormat, "request on another format's path: conform runs -api gemini, which posts to .../v1beta/models/test-model:streamGenerateContent, and the agent posted to /v1/chat/completions (-api chat speaks that format)"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(tt.mode), Format: tt.format, Timeout: slow * 10 * time.Second})
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

// Recorded mode compares Gemini requests with the calls numbered by
// position and each response given the number of the call it answers by
// position, whatever id the client made up for it.
func TestRenumberGemini(t *testing.T) {
	var top map[string]any
	body := `{"contents":[{"role":"user","parts":[{"text":"hi"}]},` +
		`{"role":"model","parts":[{"text":"t"},{"functionCall":{"id":"fc_a","name":"glob"}},{"functionCall":{"name":"grep"}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"id":"glob-1767225600-1","name":"glob"}},{"functionResponse":{"id":"grep-1767225600-2","name":"grep"}},{"functionResponse":{"id":"x","name":"extra"}}]},` +
		`{"role":"model","parts":[{"functionCall":{"id":"fc_b","name":"glob"}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"name":"glob"}}]}]}`
	if err := json.Unmarshal([]byte(body), &top); err != nil {
		t.Fatal(err)
	}
	renumberGemini(top)
	got, _ := json.Marshal(top)
	want := `{"contents":[{"parts":[{"text":"hi"}],"role":"user"},` +
		`{"parts":[{"text":"t"},{"functionCall":{"id":"#1","name":"glob"}},{"functionCall":{"name":"grep"}}],"role":"model"},` +
		`{"parts":[{"functionResponse":{"id":"#1","name":"glob"}},{"functionResponse":{"id":"#2","name":"grep"}},{"functionResponse":{"id":"(no call)","name":"extra"}}],"role":"user"},` +
		`{"parts":[{"functionCall":{"id":"#3","name":"glob"}}],"role":"model"},` +
		`{"parts":[{"functionResponse":{"name":"glob"}}],"role":"user"}]}`
	if string(got) != want {
		t.Errorf("renumbered:\n%s\nwant\n%s", got, want)
	}
}

// A recording of a Gemini agent keeps its turns and leaves out its side
// requests, which the replay answers apart.
func TestReadRecordingLeavesSideRequestsOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gemini.yaml")
	interaction := func(url, req, reply string) string {
		return "    - request:\n        body: '" + req + "'\n        form: {}\n        headers: {}\n        url: " + url + "\n        method: POST\n" +
			"      response:\n        body: '" + reply + "'\n        headers: {}\n        status: 200 OK\n        code: 200\n        duration: 0s\n"
	}
	yaml := "---\nversion: 1\ninteractions:\n" +
		interaction("http://gw.test/v1beta/models/lite:generateContent", `{"contents":[]}`, `{}`) +
		interaction("http://gw.test/v1beta/models/pro:streamGenerateContent?alt=sse", `{"contents":[1]}`, `data: {}`) +
		interaction("http://gw.test/v1beta/models/lite:generateContent", `{"contents":[2]}`, `{}`) +
		interaction("http://gw.test/v1beta/models/pro:streamGenerateContent?alt=sse", `{"contents":[3]}`, `data: {}`)
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ReadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range r.Requests {
		got = append(got, string(b))
	}
	if strings.Join(got, " ") != `{"contents":[1]} {"contents":[3]}` {
		t.Errorf("requests %q, want the two streamed turns", got)
	}
}
