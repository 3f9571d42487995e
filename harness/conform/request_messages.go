package conform

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/wire/messages"
)

// messagesFormat is Anthropic's Messages format. Its requests read into the same Request: an assistant message's tool_use
// blocks are its Calls (the input as JSON text), and a user message becomes
// its blocks in the order sent, a tool message per tool_result block and a
// user message per run of text, so that text before the tool_result blocks
// fails the check that every call is answered before any other message.
var messagesFormat = Format{Format: messages.Format, Read: readMessages, cases: MessagesCases, cut: messagesCutPoint, renumber: renumberMessages, dir: "messages"}

// messagesWire is the part of a Messages request conform reads.
type messagesWire struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
}

// messagesBlock is one content block of a message.
type messagesBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"` // a tool_result's: a string or text blocks
}

func readMessages(body []byte) (Request, error) {
	var w messagesWire
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, fmt.Errorf("%w: %w", ErrNotARequest, err)
	}
	if w.Messages == nil {
		return Request{}, fmt.Errorf("%w: no \"messages\" array", ErrNotARequest)
	}
	r := Request{Model: w.Model, Streams: w.Stream, Body: body}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, Tool{Name: t.Name, Schema: t.InputSchema})
	}
	for i, m := range w.Messages {
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			r.Messages = append(r.Messages, Message{Role: m.Role, Text: s})
			continue
		}
		var blocks []messagesBlock
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return Request{}, fmt.Errorf("%w: message %d: content is neither a string nor an array of blocks", ErrNotARequest, i+1)
		}
		if m.Role == "assistant" {
			r.Messages = append(r.Messages, assistantMessage(blocks))
			continue
		}
		for j, b := range blocks {
			switch {
			case b.Type == "tool_result":
				r.Messages = append(r.Messages, Message{Role: "tool", CallID: b.ToolUseID, Text: contentText(b.Content)})
			case j > 0 && blocks[j-1].Type != "tool_result":
				r.Messages[len(r.Messages)-1].Text += b.Text // the same run of text
			default:
				r.Messages = append(r.Messages, Message{Role: m.Role, Text: b.Text})
			}
		}
	}
	return r, nil
}

// assistantMessage is an assistant message's text, thinking (and its
// signatures) and tool_use blocks as one Message.
func assistantMessage(blocks []messagesBlock) Message {
	msg := Message{Role: "assistant"}
	msg.ThinkingFirst = len(blocks) > 0 && (blocks[0].Type == "thinking" || blocks[0].Type == "redacted_thinking")
	for _, b := range blocks {
		switch b.Type {
		case "text":
			msg.Text += b.Text
			msg.TextAfterCalls = msg.TextAfterCalls || (len(msg.Calls) > 0 && b.Text != "")
		case "thinking":
			msg.Reasoning += b.Thinking
			msg.Signatures = append(msg.Signatures, b.Signature)
		case "tool_use":
			msg.Calls = append(msg.Calls, Call{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
		}
	}
	return msg
}
