package conform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"

	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
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

var expectNames = map[Expect]string{ExpectSame: "same", ExpectBadArgs: "bad_args", ExpectBroken: "error", ExpectFirstOrBroken: "first_or_error", ExpectSameOrBroken: "same_or_error"}

// CatalogFiles returns the quirk tier of every format as plain files, built
// on the probe's turn for tools, keyed by their path in the catalog: for
// each case, <id>.sse (the model's tool turn as the case serves it) and
// <id>.json (its expected merge), and cases.json (the list); chat
// completions' at the root, the other formats' in their folders
// (messages/, responses/). A case whose transform does not apply is left
// out.
func CatalogFiles(tools []Tool) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, f := range Formats() {
		if err := catalogFiles(f, tools, files); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return files, nil
}

// catalogFiles adds format f's catalog to files.
func catalogFiles(f Format, tools []Tool, files map[string][]byte) error {
	conv, err := f.build(Request{Model: "catalog", Tools: tools}, nil, "")
	if err != nil {
		return err
	}
	at := func(name string) string { return path.Join(f.dir, name) }
	// A route of another format holds only the cases it adds (Bedrock's
	// framing): the others are the carried format's, in its folder, and a
	// route of the same SSE (Vertex AI's) has none of its own.
	if f.Carries != nil && f.Framing == nil {
		return nil
	}
	carried := map[string]bool{}
	if f.Carries != nil {
		cf, err := FormatByName(f.Carries.Name)
		if err != nil {
			return err
		}
		for _, c := range cf.Cases() {
			carried[c.ID] = true
		}
	}
	ext := ".sse"
	if f.Framing != nil {
		ext = ".eventstream" // the stream as it travels, framed
	}
	var entries []CatalogEntry
	for _, c := range f.Cases() {
		if c.Tier != TierQuirk || carried[c.ID] || (c.Transform == nil && (c.Rechunk.Mode != rechunk.Whole || c.Coalesce)) {
			continue // a shape of the writes (bedrock_bytes) is not a file's
		}
		ans, changed, err := c.answer(conv, 0, 1)
		if err != nil {
			return err
		}
		if c.Transform != nil && !changed {
			continue
		}
		turn, mergeErr := f.Merge(bytes.NewReader(ans.Body))
		m := Merged{}
		if c.Expect == ExpectBroken || c.Expect == ExpectFirstOrBroken { // our merger refuses the stream
			if mergeErr == nil {
				return fmt.Errorf("case %s: the broken stream merges without an error", c.ID)
			}
			m.Error = mergeErr.Error()
		} else {
			if mergeErr != nil {
				return fmt.Errorf("case %s: %w", c.ID, mergeErr)
			}
			m = Merged{Text: turn.Text, FinishReason: turn.FinishReason, ToolTurn: turn.ToolTurn}
			for _, tc := range turn.ToolCalls {
				m.ToolCalls = append(m.ToolCalls, Call{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			}
		}
		js, err := marshalIndent(m)
		if err != nil {
			return err
		}
		files[at(c.ID+ext)] = sse.Framed(f.Format, ans.Body)
		files[at(c.ID+".json")] = js
		entries = append(entries, CatalogEntry{ID: c.ID, Expect: expectNames[c.Expect], DropsIDs: c.DropsIDs, Source: c.Source, Doc: c.Doc})
	}
	js, err := marshalIndent(entries)
	if err != nil {
		return err
	}
	files[at("cases.json")] = js
	return nil
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
