package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/agentvcr/agentvcr/agent"
)

// summaryThinking is one reasoning block in a summary.
type summaryThinking struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// summaryCall is one call in a summary.
type summaryCall struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Arguments    string          `json:"arguments"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
	// Type is "custom" for a custom tool's call (freeform input), left out
	// for a function call.
	Type string `json:"type,omitempty"`
}

// summaryHead is the members of a summary before its tool calls, and
// summaryTail those after them.
type summaryHead struct {
	Text         string `json:"text"`
	FinishReason string `json:"finish_reason"`
	ToolTurn     bool   `json:"tool_turn"`
}

type summaryTail struct {
	Warnings []string          `json:"warnings,omitempty"`
	Thinking []summaryThinking `json:"thinking,omitempty"`
}

// writeSummary writes the merge command's output line: the turn's summary,
// or {"error":"…"} when err is not nil. HTML characters are not escaped.
// The summary is one JSON object:
// {"text","finish_reason","tool_turn","tool_calls":[{"id","name","arguments"}]}.
// Members that only some turns have come last and only when not empty:
// "warnings" (shapes the merger worked around) and then "thinking" (the
// reasoning blocks, [{"type","text","signature","data"}], empty members left
// out) after "tool_calls", and a call's "extra_content" after its
// "arguments"; so a turn without them prints exactly as it always did.
// The line is the summary encoding/json would write, but written a call at
// a time through a small buffer: a turn of many thousand calls is never
// held a second time as a summary, nor a third as one JSON text.
func writeSummary(w io.Writer, t *agent.Turn, err error) error {
	bw := bufio.NewWriterSize(w, 32<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err != nil {
		if eerr := enc.Encode(struct {
			Error string `json:"error"`
		}{err.Error()}); eerr != nil {
			return eerr
		}
		return bw.Flush()
	}
	var part bytes.Buffer
	penc := json.NewEncoder(&part)
	penc.SetEscapeHTML(false)
	// encode returns v's JSON without the newline Encode ends it with.
	encode := func(v any) ([]byte, error) {
		part.Reset()
		if err := penc.Encode(v); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(part.Bytes(), []byte("\n")), nil
	}
	head, herr := encode(summaryHead{Text: t.Text, FinishReason: t.FinishReason, ToolTurn: t.ToolTurn})
	if herr != nil {
		return herr
	}
	bw.Write(head[:len(head)-1]) // without its '}'
	bw.WriteString(`,"tool_calls":[`)
	var call summaryCall // one, passed by pointer: no copy of it on the heap per call
	for i, c := range t.ToolCalls {
		call = summaryCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments, ExtraContent: c.ExtraContent}
		if c.Type == "custom" {
			call.Type = c.Type
		}
		b, cerr := encode(&call)
		if cerr != nil {
			return cerr
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.Write(b)
	}
	bw.WriteByte(']')
	tail := summaryTail{Warnings: t.Warnings}
	for _, th := range t.Thinking {
		tail.Thinking = append(tail.Thinking, summaryThinking(th))
	}
	b, terr := encode(tail)
	if terr != nil {
		return terr
	}
	if len(b) > 2 { // not {}
		bw.WriteByte(',')
		bw.Write(b[1 : len(b)-1])
	}
	bw.WriteString("}\n")
	return bw.Flush()
}
