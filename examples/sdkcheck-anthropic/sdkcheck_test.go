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

// fixtures is agentvcr's Messages fixture folder: each <name>.sse has a
// <name>.golden.json, the merger's reviewed answer.
const fixtures = "../../wire/messages/testdata/streams"

// golden is a fixture's golden line: agentvcr merge's output.
type golden struct {
	Text         string `json:"text"`
	FinishReason string `json:"finish_reason"`
	ToolCalls    []Call `json:"tool_calls"`
	Error        string `json:"error"`
}

// verdict says how the SDK's answer stands beside the right one: "" when
// they agree, else what the SDK got wrong.
func verdict(want golden, got Answer) string {
	switch {
	case want.Error != "" && got.Err != nil:
		return ""
	case want.Error != "":
		return fmt.Sprintf("no error (text %q, %d calls) where the stream is an error (%s)", got.Text, len(got.Calls), want.Error)
	case got.Err != nil:
		return fmt.Sprintf("error %q on a good stream", got.Err)
	}
	var diffs []string
	if got.Text != want.Text {
		diffs = append(diffs, fmt.Sprintf("text %q, want %q", got.Text, want.Text))
	}
	if got.StopReason != want.FinishReason {
		diffs = append(diffs, fmt.Sprintf("stop_reason %q, want %q", got.StopReason, want.FinishReason))
	}
	if d := cmp.Diff(want.ToolCalls, got.Calls); d != "" && !(len(want.ToolCalls) == 0 && len(got.Calls) == 0) {
		diffs = append(diffs, fmt.Sprintf("calls %+v, want %+v", got.Calls, want.ToolCalls))
	}
	return strings.Join(diffs, "; ")
}

// disagreements are the fixtures where the SDK's answer is not the right
// one, with the reason (docs/quirks.md's table says the same). Every other
// fixture must agree; each of these must still disagree.
var disagreements = map[string]string{
	"block_index_from_1":                "Accumulate requires a block's index to be its array position: the stream fails at the first block (maragudk/gai #297)",
	"event_before_message_start":        "a content block before message_start is lost when message_start replaces the Message; the next delta then fails",
	"message_start_repeated_same_id":    "a repeated message_start replaces the Message, dropping the blocks so far; the next delta fails (vercel/ai #18402)",
	"second_message_in_stream":          "a second message replaces the first without an error: one turn silently becomes another",
	"start_input_populated_then_deltas": "the deltas are appended to a start input that is not {}: the joined text is not JSON and is replaced by {}, so the call runs without its arguments",
	"invalid_partial_json_kept":         "arguments that are not JSON become {} silently: the tool runs without them instead of telling the model what was wrong",
	"cut_before_message_stop":           "a stream cut before message_stop ends without an error, with the half call in the Message (anthropics/anthropic-sdk-go #200)",
	"error_data_without_event_line":     "an error object without an event: error line is decoded as an event of type error and ignored: no error",
	"no_event_lines":                    "events without an event: line are skipped by ssestream: nothing is merged and there is no error",
	"tool_use_all_at_index_0":           "Accumulate requires a start's index to be the next array position: a second block at index 0 fails the stream (sglang #39782)",
	"start_repeats_stopped_index":       "the API's own repeated index on a start (a code-execution recording) fails the stream: index 2, expected 3",
	"max_tokens_cut_call":               "stop_reason max_tokens after a cut input_json_delta is no error: the Message carries both calls, the cut one among them",
}

func TestAnthropicSDKOverFixtures(t *testing.T) {
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
				t.Fatalf("golden: %v", err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := verdict(want, Read(f))
			reason, known := disagreements[name]
			switch {
			case got != "" && !known:
				t.Errorf("anthropic-sdk-go disagrees with the golden: %s", got)
			case got == "" && known:
				t.Errorf("anthropic-sdk-go now agrees with the golden; drop the disagreement %q", reason)
			case got != "":
				t.Logf("known disagreement: %s (%s)", reason, got)
			}
		})
	}
	for name := range disagreements {
		if !slices.Contains(names, name) {
			t.Errorf("disagreement listed for %q, which is no fixture", name)
		}
	}
}
