package harness

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// A Recording is what the first request of a cassette says about the
// conversation it holds: enough to replay it with the same request bytes.
type Recording struct {
	// BaseURL is the recorded endpoint without the format's path
	// ("/chat/completions", "/responses"), so that the replayed requests have
	// the recorded path.
	BaseURL string
	// API is the wire format the recorded path names (agent.API.Name).
	API string
	// Model is the recorded "model".
	Model string
	// Prompt is the content of the last user message of the first request.
	Prompt string
	// Interactions is how many request/response pairs the cassette holds.
	Interactions int
}

// ReadRecording reads a cassette's first request (path with or without
// ".yaml").
func ReadRecording(path string) (Recording, error) {
	c, err := LoadCassette(path)
	if err != nil {
		return Recording{}, err
	}
	if len(c.Interactions) == 0 {
		return Recording{}, fmt.Errorf("cassette %s: %w", path, ErrEmptyRecording)
	}
	first := c.Interactions[0].Request
	u, err := url.Parse(first.URL)
	if err != nil {
		return Recording{}, fmt.Errorf("cassette %s: recorded URL: %w", path, err)
	}
	api := apiOfPath(u.Path)
	// Chat completions say "messages", Responses "input"; the prompt is the
	// last user text of either.
	type text struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	var body struct {
		Model    string `json:"model"`
		Messages []text `json:"messages"`
		Input    []text `json:"input"`
	}
	if err := json.Unmarshal([]byte(first.Body), &body); err != nil {
		return Recording{}, fmt.Errorf("cassette %s: first request body is not a %s request: %w", path, api.Name, err)
	}
	rec := Recording{Model: body.Model, API: api.Name, Interactions: len(c.Interactions)}
	for _, m := range append(body.Messages, body.Input...) {
		var content string
		if m.Role == "user" && json.Unmarshal(m.Content, &content) == nil {
			rec.Prompt = content
		}
	}
	u.Path = strings.TrimSuffix(u.Path, api.Path)
	rec.BaseURL = u.String()
	return rec, nil
}

// CassetteFile is the file name of a cassette in a locale: <name>.yaml for
// zh, <name>.en.yaml for en.
func CassetteFile(name string, lang tools.Lang) string {
	if lang == tools.EN {
		return name + ".en.yaml"
	}
	return name + ".yaml"
}

// apiOfPath is the wire format whose path ends the recorded URL path, chat
// completions when none does.
func apiOfPath(path string) *agent.API {
	for _, a := range agent.APIs() {
		if strings.HasSuffix(path, a.Path) {
			return a
		}
	}
	return agent.ChatCompletions
}
