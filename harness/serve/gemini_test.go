package serve_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/gemini"
)

// The demo recorded in Gemini's format is served on POST
// .../v1beta/models/{model}:streamGenerateContent, plain and under a Gemini
// quirk, for the recorded model when bodies are matched and for any model
// when turns are (one cassette): the agent's loop, speaking Gemini with the
// server's root (or a case's) as its base URL, replays it to the end.
func TestServerServesGeminiCassette(t *testing.T) {
	served := servedCassettes(t, "gemini/demo")
	served[0].Name = "demo"
	want := []string{"glob", "grep", "read_file"}
	for _, mode := range []struct {
		match serve.MatchMode
		model string
	}{{serve.MatchBody, "demo"}, {serve.MatchTurn, "gemini-3.5-flash"}} {
		router := &serve.CassetteRouter{Cassettes: served, Match: mode.match}
		base := strings.TrimSuffix(serveOn(t, &serve.Server{Route: router.Route}), "/v1")
		for _, root := range []string{base, base + "/s/demo", base + "/s/demo~gemini_calls_across_events"} {
			dir := t.TempDir()
			if err := demo.WriteSandbox(dir); err != nil {
				t.Fatal(err)
			}
			ws, err := tools.NewWorkspace(dir)
			if err != nil {
				t.Fatal(err)
			}
			var calls []string
			loop := agent.Loop{Client: &agent.Client{BaseURL: root, APIKey: "any", Model: mode.model, Format: gemini.Format},
				Tools: tools.Default(ws, tools.ZH), OnEvent: func(e agent.Event) {
					if e.Kind == agent.KindCall {
						calls = append(calls, e.Call.Name)
					}
				}}
			msgs, err := loop.Run(context.Background(), []agent.Message{
				{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.ZH)}, {Role: agent.RoleUser, Content: demo.Prompt(tools.ZH)}})
			if err != nil {
				t.Fatalf("%s: %v", root, err)
			}
			if diff := cmp.Diff(want, calls); diff != "" {
				t.Errorf("%s: calls (-want +got):\n%s", root, diff)
			}
			if !strings.HasPrefix(msgs[len(msgs)-1].Content, "测试红的原因") {
				t.Errorf("%s: last message %q", root, msgs[len(msgs)-1].Content)
			}
		}
	}
}

// classifierCassette holds what Gemini CLI sends first: a routing
// classifier on :generateContent answered with one JSON object, then the
// streamed turn, both turn 1 of the same body.
const classifierCassette = `---
version: 1
interactions:
    - request:
        body: '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}'
        form: {}
        headers:
            Content-Type:
                - application/json
        url: http://gw.test/v1beta/models/lite:generateContent
        method: POST
      response:
        body: '{"candidates":[{"content":{"parts":[{"text":"{\"complexity_score\":10}"}],"role":"model"},"finishReason":"STOP","index":0}]}'
        headers:
            Content-Type:
                - application/json
        status: 200 OK
        code: 200
        duration: 0s
    - request:
        body: '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}'
        form: {}
        headers:
            Content-Type:
                - application/json
        url: http://gw.test/v1beta/models/lite:streamGenerateContent?alt=sse
        method: POST
      response:
        body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"streamed\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}]}\r\n\r\n"
        headers:
            Content-Type:
                - text/event-stream
        status: 200 OK
        code: 200
        duration: 0s
`

// A request on :generateContent gets the recorded whole JSON answer, and the
// same body on :streamGenerateContent the recorded stream, whatever model
// the path names, in both match modes.
func TestServerAnswersGeminiWholeAndStreamed(t *testing.T) {
	for _, match := range []serve.MatchMode{serve.MatchTurn, serve.MatchBody} {
		router := &serve.CassetteRouter{Cassettes: []serve.ServedCassette{{Name: "cls", Data: []byte(classifierCassette)}}, Match: match}
		base := strings.TrimSuffix(serveOn(t, &serve.Server{Route: router.Route}), "/v1")
		for _, tt := range []struct{ path, contentType, body string }{
			{"/v1beta/models/lite:generateContent", "application/json", `"text":"{\"complexity_score\":10}"`},
			{"/v1beta/models/lite:streamGenerateContent?alt=sse", "text/event-stream", `"text":"streamed"`},
		} {
			resp, err := http.Post(base+tt.path, "application/json", strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.contentType || !strings.Contains(string(body), tt.body) {
				t.Errorf("match %v, %s: %d %s %s", match, tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
		}
	}
}
