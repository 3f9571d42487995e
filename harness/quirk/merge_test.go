package quirk

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// refTurn is what a correct accumulator (package agent's doc, "Tool-call
// identity") makes of a stream. It is a reference for the quirk tests only;
// the real accumulator lives in package agent, which harness tests must not
// need.
type refTurn struct {
	Text         string
	FinishReason string
	Done         bool
	Calls        []refCall
}

type refCall struct {
	ID, Name, Arguments string
}

type refAcc struct {
	id, name string
	args     strings.Builder
	pieces   []string // the non-empty argument pieces, for the cumulative reading
	index    int64
	hasIndex bool
}

func refMerge(body []byte) (refTurn, error) {
	var t refTurn
	var calls []*refAcc
	byIndex := map[int64]*refAcc{}
	byID := map[string]*refAcc{}
	var last *refAcc
	open := func(idx int64, has bool) *refAcc {
		c := &refAcc{index: idx, hasIndex: has}
		calls = append(calls, c)
		if has {
			byIndex[idx] = c
		}
		return c
	}
	keep, several := refChoices(body)
	for _, ev := range sse.Parse(body) {
		if !ev.HasData {
			continue
		}
		if strings.TrimSpace(ev.Data) == "[DONE]" {
			t.Done = true
			break
		}
		var chunk struct {
			Choices []struct {
				Index *int64 `json:"index"`
				Delta struct {
					Content   json.RawMessage `json:"content"`
					ToolCalls []struct {
						Index    *int64 `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(ev.Data), &chunk); err != nil {
			return t, fmt.Errorf("chunk %q: %w", ev.Data, err)
		}
		for _, ch := range chunk.Choices {
			if several && (ch.Index == nil && keep != 0 || ch.Index != nil && *ch.Index != keep) {
				continue // several answers: only the first choice counts
			}
			t.Text += refText(ch.Delta.Content)
			if ch.FinishReason != nil {
				t.FinishReason = *ch.FinishReason
			}
			for _, tc := range ch.Delta.ToolCalls {
				id := tc.ID
				if id == "null" {
					id = ""
				}
				name := tc.Function.Name
				var c *refAcc
				switch {
				case id != "" && byID[id] != nil:
					c = byID[id]
				case tc.Index != nil:
					c = byIndex[*tc.Index]
					if c == nil || (id != "" && name != "" && c.id != "") {
						c = open(*tc.Index, true)
					}
				case id != "" || last == nil:
					c = open(0, false)
				default:
					c = last
				}
				if c.id == "" && id != "" {
					c.id = id
					byID[id] = c
				}
				if name != c.name { // a name in pieces; a repeat adds nothing
					c.name += name
				}
				c.args.WriteString(tc.Function.Arguments)
				if tc.Function.Arguments != "" {
					c.pieces = append(c.pieces, tc.Function.Arguments)
				}
				last = c
			}
		}
	}
	sorted := append([]*refAcc(nil), calls...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].index < sorted[b].index })
	for pos, c := range sorted {
		call := refCall{ID: c.id, Name: c.name, Arguments: c.arguments()}
		if call.ID == "" {
			call.ID = fmt.Sprintf("call_%d_%d", c.index, pos)
		}
		if call.Arguments == "" {
			call.Arguments = "{}"
		}
		t.Calls = append(t.Calls, call)
	}
	return t, nil
}

// refText is the answer text of delta.content: a string, or the text of the
// "text" parts of an array.
func refText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	json.Unmarshal(content, &parts)
	for _, p := range parts {
		if p.Type == "text" {
			s += p.Text
		}
	}
	return s
}

// refChoices reads the choice indexes of a stream: the first one (missing
// counts as 0) and whether they ever go back down (several answers).
func refChoices(body []byte) (first int64, several bool) {
	var last int64
	seen := false
	for _, ev := range sse.Parse(body) {
		var chunk struct {
			Choices []struct {
				Index *int64 `json:"index"`
			} `json:"choices"`
		}
		if !ev.HasData || json.Unmarshal([]byte(ev.Data), &chunk) != nil {
			continue
		}
		for _, ch := range chunk.Choices {
			var idx int64
			if ch.Index != nil {
				idx = *ch.Index
			}
			switch {
			case !seen:
				first, seen = idx, true
			case idx < last:
				several = true
			}
			last = idx
		}
	}
	return first, several
}

// arguments is the call's arguments: the pieces joined when that is valid
// JSON; else, when the last piece is valid JSON and carries what came
// before (it starts with the piece before it, or equals all of them), the
// last piece; else the pieces joined.
func (c *refAcc) arguments() string {
	joined := c.args.String()
	n := len(c.pieces)
	if n < 2 || json.Valid([]byte(joined)) {
		return joined
	}
	last := c.pieces[n-1]
	if json.Valid([]byte(last)) && (strings.HasPrefix(last, c.pieces[n-2]) || last == strings.Join(c.pieces[:n-1], "")) {
		return last
	}
	return joined
}
