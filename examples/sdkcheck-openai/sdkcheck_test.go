package sdkcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixtures is agentvcr's Responses fixture folder: each <name>.sse has a
// <name>.golden.json, the merger's reviewed answer.
const fixtures = "../../wire/responses/testdata/streams"

// golden is a fixture's golden line: agentvcr merge's output.
type golden struct {
	Text      string `json:"text"`
	ToolCalls []Call `json:"tool_calls"`
	Error     string `json:"error"`
}

// verdict says how openai-go's answer stands beside the right one: "" when
// they agree, else what the SDK got wrong.
func verdict(want golden, got Answer) string {
	switch {
	case want.Error != "" && got.Err != nil:
		return ""
	case want.Error != "" && got.Completed:
		return fmt.Sprintf("a completed turn (text %q, %d calls) where the stream is an error (%s)", got.Text, len(got.Calls), want.Error)
	case want.Error != "":
		return fmt.Sprintf("no error and no response where the stream is an error (%s)", want.Error)
	case got.Err != nil:
		return fmt.Sprintf("error %q on a good stream", got.Err)
	case !got.Completed:
		return "no response and no error"
	}
	var diffs []string
	if got.Text != want.Text {
		diffs = append(diffs, fmt.Sprintf("text %q, want %q", got.Text, want.Text))
	}
	if d := cmp.Diff(want.ToolCalls, got.Calls); d != "" && !(len(want.ToolCalls) == 0 && len(got.Calls) == 0) {
		diffs = append(diffs, fmt.Sprintf("calls %+v, want %+v", got.Calls, want.ToolCalls))
	}
	return strings.Join(diffs, "; ")
}

// disagreements are the fixtures where openai-go's answer is not the right
// one, with the reason (docs/quirks.md's table says the same). Every other
// fixture must agree; each of these must still disagree.
var disagreements = map[string]string{
	"args_only_in_item_done":  "the arguments and the call are only in output_item.done; response.completed's output is empty",
	"never_announced":         "text and call were streamed (the call named by output_item.done); response.completed's output is empty",
	"completed_empty":         "response.completed's output is empty after streamed output: the text and both calls are lost",
	"completed_fills_gaps":    "response.completed's output differs from what was streamed: its text and arguments replace the streamed ones",
	"completed_reordered":     "the calls come in response.completed's order, not the streamed output_index order",
	"closed_before_completed": "a stream cut before response.completed ends without an error: nothing, silently",
	"error_event":             `an error event ({"type":"error"} has no "error" member) is only an event: stream.Err() is nil`,
	"error_failed":            "response.failed is only an event: stream.Err() is nil",
	"error_incomplete":        "response.incomplete is only an event: stream.Err() is nil",
	"second_response":         "a second response in the stream is read on; the last response.completed wins",
}

func TestOpenAIGoOverFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtures, "*.sse"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtures, err)
	}
	var names []string
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".sse")
		names = append(names, name)
		t.Run(name, func(t *testing.T) {
			line, err := os.ReadFile(strings.TrimSuffix(path, ".sse") + ".golden.json")
			if err != nil {
				t.Fatal(err)
			}
			var want golden
			if err := json.Unmarshal(line, &want); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := verdict(want, Read(f))
			t.Logf("openai-go: %s", got)
			reason, known := disagreements[name]
			switch {
			case got != "" && !known:
				t.Errorf("openai-go disagrees with the merger's golden: %s", got)
			case got == "" && known:
				t.Errorf("openai-go now agrees (was: %s): drop it from the table and from docs/quirks.md", reason)
			}
		})
	}
	for name := range disagreements {
		if !slices.Contains(names, name) {
			t.Errorf("disagreement listed for %s, which is no fixture", name)
		}
	}
}
