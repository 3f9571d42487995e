package harness

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentvcr/agentvcr/tools"
)

// A Recording is what the first request of a cassette says about the
// conversation it holds: enough to replay it with the same request bytes.
type Recording struct {
	// BaseURL is the recorded endpoint without "/chat/completions", so that
	// the replayed requests have the recorded path.
	BaseURL string
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
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(first.Body), &body); err != nil {
		return Recording{}, fmt.Errorf("cassette %s: first request body is not a chat-completions request: %w", path, err)
	}
	rec := Recording{Model: body.Model, Interactions: len(c.Interactions)}
	for _, m := range body.Messages {
		if m.Role == "user" {
			rec.Prompt = m.Content
		}
	}
	u, err := url.Parse(first.URL)
	if err != nil {
		return Recording{}, fmt.Errorf("cassette %s: recorded URL: %w", path, err)
	}
	u.Path = strings.TrimSuffix(u.Path, "/chat/completions")
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
