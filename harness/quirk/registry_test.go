package quirk

import (
	"errors"
	"slices"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// TestEveryQuirkRefusesOtherFormats applies every quirk to a clean stream
// of every format: a quirk of one format refuses the others' with
// ErrNotApplicable (and leaves them unchanged by returning nothing); a
// format-free one edits them all.
func TestEveryQuirkRefusesOtherFormats(t *testing.T) {
	// Each format's own clean stream (agent.Format.Write) of a turn with
	// text and two calls: a new format is checked by being registered.
	turn := agent.Turn{Text: "先看看。", ToolCalls: []agent.ToolCall{
		{Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":"**/*.js"}`}},
		{Type: "function", Function: agent.FunctionCall{Name: "grep", Arguments: `{"pattern":"divide"}`}},
	}}
	clean := map[string][]byte{}
	for _, api := range wire.All() {
		if api.Carries != nil && api.Framing == nil {
			continue // its clean stream is the carried format's
		}
		// as it travels: a framed format's events framed
		var body []byte
		for _, e := range api.Write("m", "clean", 0, &turn) {
			body = append(body, api.FrameEvent([]byte(e))...)
		}
		if wire.Detect(body) != api {
			t.Fatalf("the clean %s stream is detected as %s", api.Name, wire.Detect(body).Name)
		}
		clean[api.Name] = body
	}
	for _, q := range All() {
		for format, body := range clean {
			out, err := q.Apply(body, 1)
			switch {
			case q.API == "":
				if err != nil {
					t.Errorf("%s (any format) on a clean %s stream: %v", q.Name, format, err)
				}
			case q.API == messages.Bedrock.Name && format == messages.Format.Name:
				// Bedrock's events are Anthropic's: its framing quirks
				// take them unframed too, and frame them.
				if err != nil || !messages.Bedrock.Framing.IsFramed(out) {
					t.Errorf("%s on a clean Messages stream: %d bytes, %v; want it framed", q.Name, len(out), err)
				}
			case q.API != format:
				if !errors.Is(err, ErrNotApplicable) || out != nil {
					t.Errorf("%s (%s) on a clean %s stream: %d bytes, %v; want ErrNotApplicable", q.Name, q.API, format, len(out), err)
				}
			}
		}
	}
}

// TestRegistryViews: ByName, OfAPI and Names read All, so every quirk of
// every format is found, and each format's list is All's, in order.
func TestRegistryViews(t *testing.T) {
	all := All()
	names := Names()
	if len(names) != len(all) {
		t.Fatalf("Names lists %d quirks, All has %d", len(names), len(all))
	}
	perAPI := map[string]int{}
	for i, q := range all {
		if names[i] != q.Name {
			t.Errorf("Names()[%d] = %q, want %q", i, names[i], q.Name)
		}
		if got, ok := ByName(q.Name); !ok || got.API != q.API {
			t.Errorf("ByName(%q) = %+v, %v", q.Name, got, ok)
		}
		perAPI[q.API]++
	}
	for _, api := range wire.All() {
		if api.Carries != nil && api.Framing == nil {
			continue // a route of the same SSE (Vertex AI's): the carried format's quirks are its own
		}
		of := OfAPI(api.Name)
		if len(of) != perAPI[api.Name] || len(of) == 0 {
			t.Errorf("OfAPI(%s) has %d quirks, want %d", api.Name, len(of), perAPI[api.Name])
		}
		for _, q := range of {
			if q.API != api.Name {
				t.Errorf("OfAPI(%s) holds %s of %q", api.Name, q.Name, q.API)
			}
		}
	}
	if got := len(messagesQuirks()); perAPI[messages.Format.Name] != got {
		t.Errorf("All holds %d Messages quirks, want all %d", perAPI[messages.Format.Name], got)
	}
}

// TestOnArgumentsQuirks: the quirks whose shape is the argument text
// alone, the ones conform skips as vacuous on calls that carry "{}"; a
// composition is one only when every part is.
func TestOnArgumentsQuirks(t *testing.T) {
	var got []string
	for _, q := range All() {
		if q.OnArguments {
			got = append(got, q.Name)
		}
	}
	want := []string{"args_cumulative", "args_one_rune", "args_repeated_at_end", "args_split_escapes", "converse_input_whole",
		"gemini_args_streamed", "gemini_args_streamed_ids_repeated", "gemini_args_streamed_one_rune", "gemini_args_streamed_out_of_order", "gemini_args_streamed_split_escapes",
		"messages_args_one_rune", "messages_args_split_escapes",
		"responses_args_done_differs", "responses_args_one_rune", "responses_args_only_in_done", "responses_args_only_in_item_done"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("quirks on the argument text alone:\n got %v\nwant %v", got, want)
	}
	for _, tt := range []struct {
		name string
		want bool
	}{{"args_one_rune+crlf", false}, {"ids_dropped+args_one_rune", false}} {
		q, err := Lookup(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if q.OnArguments != tt.want {
			t.Errorf("%s: OnArguments %v, want %v", tt.name, q.OnArguments, tt.want)
		}
	}
}
