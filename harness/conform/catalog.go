package conform

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// A CatalogEntry describes one case of the catalog as data (cases.json).
type CatalogEntry struct {
	ID     string `json:"id"`
	Expect string `json:"expect"` // same, bad_args or error
	// DropsIDs: the stream carries no ids, so the merged ids are the
	// accumulator's own; compare calls by position.
	DropsIDs bool   `json:"drops_ids"`
	Source   string `json:"source"`
	Doc      string `json:"doc"`
}

// A Merged turn is the expected merge of one catalog stream, in the shape
// `agentvcr merge` prints; a stream that must be refused has only Error.
type Merged struct {
	Text         string `json:"text,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
	ToolTurn     bool   `json:"tool_turn,omitempty"`
	ToolCalls    []Call `json:"tool_calls,omitempty"`
	Error        string `json:"error,omitempty"`
}

var expectNames = map[Expect]string{ExpectSame: "same", ExpectBadArgs: "bad_args", ExpectBroken: "error"}

// CatalogFiles returns the quirk tier as plain files, built on the probe's
// turn for tools: for each case, <id>.sse (the model's tool turn as the
// case serves it) and <id>.json (its expected merge), and cases.json (the
// list). A case whose transform does not apply is left out.
func CatalogFiles(tools []Tool) (map[string][]byte, error) {
	conv, err := probeConversation(Request{Model: "catalog", Tools: tools}, nil)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	var entries []CatalogEntry
	for _, c := range Cases() {
		if c.Tier != TierQuirk {
			continue
		}
		ans, changed, err := c.answer(conv, 0, 1)
		if err != nil {
			return nil, err
		}
		if c.Transform != nil && !changed {
			continue
		}
		turn, mergeErr := agent.MergeStream(bytes.NewReader(ans.Body))
		m := Merged{}
		if c.Expect == ExpectBroken {
			if mergeErr == nil {
				return nil, fmt.Errorf("case %s: the broken stream merges without an error", c.ID)
			}
			m.Error = mergeErr.Error()
		} else {
			if mergeErr != nil {
				return nil, fmt.Errorf("case %s: %w", c.ID, mergeErr)
			}
			m = Merged{Text: turn.Text, FinishReason: turn.FinishReason, ToolTurn: turn.ToolTurn}
			for _, tc := range turn.ToolCalls {
				m.ToolCalls = append(m.ToolCalls, Call{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			}
		}
		js, err := marshalIndent(m)
		if err != nil {
			return nil, err
		}
		files[c.ID+".sse"] = ans.Body
		files[c.ID+".json"] = js
		entries = append(entries, CatalogEntry{ID: c.ID, Expect: expectNames[c.Expect], DropsIDs: c.DropsIDs, Source: c.Source, Doc: c.Doc})
	}
	js, err := marshalIndent(entries)
	if err != nil {
		return nil, err
	}
	files["cases.json"] = js
	return files, nil
}

func marshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// AgentvcrTools are the tools agentvcr's own agent offers (English
// descriptions): the catalog's turn is built on them.
func AgentvcrTools() []Tool {
	var out []Tool
	for _, d := range tools.Default(nil, tools.EN).Definitions() {
		out = append(out, Tool{Name: d.Function.Name, Schema: d.Function.Parameters})
	}
	return out
}
