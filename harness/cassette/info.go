package cassette

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"
)

// A Recording is what the first request of a cassette says about the
// conversation it holds: enough to replay it with the same request bytes.
type Recording struct {
	// API is the wire format whose path the recorded one is
	// (wire.ForPath; the default when none serves it).
	API *agent.Format
	// BaseURL is the recorded endpoint without the format's path, so that
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
	c, err := Load(path)
	if err != nil {
		return Recording{}, err
	}
	return RecordingOf(path, c)
}

// Recording reads the first request of the cassette a replay serves
// (RecordingOf of what Open or Replay loaded).
func (c *Cassette) Recording() (Recording, error) {
	if c.mode != ModeReplay {
		return Recording{}, fmt.Errorf("cassette %s: recording, not replaying: nothing recorded to read yet", c.file)
	}
	return RecordingOf(c.file, c.loaded)
}

// RecordingOf reads the first request of a cassette already loaded (Load,
// Decode); path names it in errors.
func RecordingOf(path string, c *vcr.Cassette) (Recording, error) {
	if len(c.Interactions) == 0 {
		return Recording{}, fmt.Errorf("cassette %s: %w", path, ErrEmptyRecording)
	}
	first := c.Interactions[0].Request
	u, err := url.Parse(first.URL)
	if err != nil {
		return Recording{}, fmt.Errorf("cassette %s: recorded URL: %w", path, err)
	}
	api := wire.ForPath(u.Path)
	if api == nil {
		api = wire.Default()
	}
	// Chat completions and Messages say "messages", Responses "input"; the
	// prompt is the last user text of any.
	type text struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	var body struct {
		Model    string    `json:"model"`
		Messages []text    `json:"messages"`
		Input    []text    `json:"input"`
		Contents []content `json:"contents"` // Gemini
	}
	if err := json.Unmarshal([]byte(first.Body), &body); err != nil {
		return Recording{}, fmt.Errorf("cassette %s: first request body is not a %s request: %w", path, api.Name, err)
	}
	rec := Recording{API: api, Model: body.Model, Interactions: len(c.Interactions)}
	if api.PathModel != nil {
		rec.Model, _ = api.PathModel(u.Path)
	}
	for _, m := range append(body.Messages, body.Input...) {
		if m.Role == "user" {
			rec.Prompt = promptText(m.Content)
		}
	}
	for _, c := range body.Contents {
		if p := c.text(); c.Role == "user" && p != "" {
			rec.Prompt = p
		}
	}
	u.Path = strings.TrimSuffix(u.Path, api.Path(rec.Model))
	u.RawQuery = withoutQuery(u.RawQuery, api.Query)
	rec.BaseURL = u.String()
	return rec, nil
}

// content is a Gemini content: its role and its parts' text.
type content struct {
	Role  string `json:"role"`
	Parts []struct {
		Text    string `json:"text"`
		Thought bool   `json:"thought"`
	} `json:"parts"`
}

// text is the content's text parts, joined; "" for a content of
// functionResponse parts.
func (c content) text() string {
	var b strings.Builder
	for _, p := range c.Parts {
		if !p.Thought {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// withoutQuery removes what the client adds to every URL's query
// (agent.Format.Query) wherever it stands (redaction sorts the parameters),
// so that a replay adds it once.
func withoutQuery(query, added string) string {
	if added == "" || query == "" {
		return query
	}
	var kept []string
	for _, p := range strings.Split(query, "&") {
		if p != added {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "&")
}

// promptText is a message content's text: the string, or the text of its
// text blocks (Anthropic Messages), joined.
func promptText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// File is the file name of a cassette in a locale: <name>.yaml for
// zh, <name>.en.yaml for en.
func File(name string, lang tools.Lang) string {
	if lang == tools.EN {
		return name + ".en.yaml"
	}
	return name + ".yaml"
}
