package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// firstInteraction reads a cassette's first request body and response body.
func firstInteraction(path string) (request, reply []byte, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	c := vcr.New("")
	if err := yaml.Unmarshal(data, c); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(c.Interactions) == 0 {
		return nil, nil, fmt.Errorf("%s holds no interaction", path)
	}
	i := c.Interactions[0]
	return []byte(i.Request.Body), []byte(i.Response.Body), nil
}

// writeFixture writes an aimock fixture file whose one fixture matches the
// request's last user message and answers with the merged turn of reply:
// the same text and calls (names, arguments, ids).
func writeFixture(path string, request, reply []byte) error {
	var req struct {
		Messages []agent.Message `json:"messages"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return err
	}
	user := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			user = m.Content
		}
	}
	if user == "" {
		return errors.New("the request has no user message to match on")
	}
	turn, err := chat.Merge(bytes.NewReader(reply))
	if err != nil {
		return err
	}
	type call struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	var calls []call
	for _, c := range turn.ToolCalls {
		calls = append(calls, call{c.ID, c.Function.Name, c.Function.Arguments})
	}
	fx := map[string]any{"fixtures": []any{map[string]any{
		"match":    map[string]any{"userMessage": user},
		"response": map[string]any{"content": turn.Text, "toolCalls": calls},
	}}}
	out, err := json.MarshalIndent(fx, "", "  ")
	if err != nil {
		return err
	}
	if strings.TrimSpace(turn.Text) == "" && len(calls) == 0 {
		return errors.New("the recorded turn is empty")
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}
