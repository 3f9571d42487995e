package conform

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/gemini"
)

// The purpose-built Gemini agents, as Gemini CLI talks: a routing
// classifier first (:generateContent asking for JSON on a lite model, whose
// answer must read as the schema's object), then the turns on
// GOOGLE_GEMINI_BASE_URL with our agent core's Gemini client, answering
// each call with a functionResponse.
const (
	gemAgentGood  = "gemini_good"  // keeps each call's thoughtSignature
	gemAgentNoSig = "gemini_nosig" // drops the thoughtSignatures
)

var testGeminiTools = []tools.Definition{
	{Type: "function", Function: tools.Function{Name: "read_file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}},
	{Type: "function", Function: tools.Function{Name: "grep", Parameters: json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"}},"required":["pattern"]}`)}},
}

// classifierBody is the side request: Gemini CLI's shape, reduced.
const classifierBody = `{"contents":[{"role":"user","parts":[{"text":"look around"}]}],"generationConfig":{"responseMimeType":"application/json",` +
	`"responseJsonSchema":{"type":"object","properties":{"complexity_reasoning":{"type":"string"},"complexity_score":{"type":"integer"}},"required":["complexity_reasoning","complexity_score"]}}}`

func testGeminiAgent(r *agentRun, mode string) int {
	base := strings.TrimRight(r.getenv("GOOGLE_GEMINI_BASE_URL"), "/")
	hc := r.client()
	req, _ := http.NewRequest(http.MethodPost, base+gemini.Format.WholePath("test-lite"), strings.NewReader(classifierBody))
	req.Header.Set("x-goog-api-key", r.getenv("GEMINI_API_KEY"))
	resp, err := hc.Do(req)
	if err != nil {
		fmt.Fprintln(r.stderr, "test agent: classifier:", err)
		return 1
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var whole struct {
		Candidates []struct {
			Content struct {
				Parts []struct{ Text string } `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	var rated struct {
		Reasoning string `json:"complexity_reasoning"`
		Score     int    `json:"complexity_score"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(answer, &whole) != nil || len(whole.Candidates) != 1 || len(whole.Candidates[0].Content.Parts) != 1 ||
		json.Unmarshal([]byte(whole.Candidates[0].Content.Parts[0].Text), &rated) != nil || rated.Reasoning == "" {
		fmt.Fprintf(r.stderr, "test agent: the classifier answered %d %s\n", resp.StatusCode, answer)
		return 1
	}
	c := &agent.Client{BaseURL: base, APIKey: r.getenv("GEMINI_API_KEY"), Model: "test-model", Format: gemini.Format, HTTPClient: hc}
	msgs := []agent.Message{{Role: agent.RoleSystem, Content: "You are a test agent."}, {Role: agent.RoleUser, Content: "look around"}}
	for range 4 {
		turn, err := c.Complete(r.ctx, msgs, testGeminiTools)
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		if len(turn.ToolCalls) == 0 {
			fmt.Fprintln(r.stdout, turn.Text)
			return 0
		}
		if mode == gemAgentNoSig {
			for i := range turn.ToolCalls {
				turn.ToolCalls[i].ExtraContent = nil
			}
		}
		msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: turn.Text, ToolCalls: turn.ToolCalls})
		for _, call := range turn.ToolCalls {
			msgs = append(msgs, agent.Message{Role: agent.RoleTool, ToolCallID: call.ID, Content: "ok " + call.Function.Name})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}
