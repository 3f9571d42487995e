package sdkcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixtures is agentvcr's Gemini fixture folder: each <name>.sse has a
// <name>.golden.json, the merger's reviewed answer.
const fixtures = "../../wire/gemini/testdata/streams"

// golden is a fixture's golden line: agentvcr merge's output.
type golden struct {
	Text         string `json:"text"`
	FinishReason string `json:"finish_reason"`
	ToolCalls    []struct {
		ID           string          `json:"id"`
		Name         string          `json:"name"`
		Arguments    string          `json:"arguments"`
		ExtraContent json.RawMessage `json:"extra_content"`
	} `json:"tool_calls"`
	Thinking []struct {
		Type string `json:"type"`
		Text string `json:"text"`
		Data string `json:"data"`
	} `json:"thinking"`
	Error string `json:"error"`
}

// want is the golden as the SDK's Answer would say it: ids only where the
// stream had them (agentvcr makes up call_<position>), args with sorted keys,
// signatures as streamed.
func (g golden) want() Answer {
	a := Answer{Text: g.Text, FinishReason: g.FinishReason}
	for i, c := range g.ToolCalls {
		id := c.ID
		if id == fmt.Sprintf("call_%d", i) {
			id = ""
		}
		var extra struct {
			Google struct {
				ThoughtSignature string `json:"thought_signature"`
			} `json:"google"`
		}
		json.Unmarshal(c.ExtraContent, &extra)
		a.Calls = append(a.Calls, Call{ID: id, Name: c.Name, Arguments: sortedJSON(c.Arguments), Signature: extra.Google.ThoughtSignature})
	}
	for _, th := range g.Thinking {
		switch th.Type {
		case "reasoning":
			a.Thoughts += th.Text
		case "redacted_thinking":
			a.Signatures = append(a.Signatures, th.Data)
		}
	}
	return a
}

// sortedJSON is a JSON text with its object keys sorted, as the SDK's map
// prints it; the text itself when it is not JSON.
func sortedJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// verdict says how the SDK's answer stands beside the right one: "" when
// they agree, else what the SDK got wrong.
func verdict(g golden, got Answer) string {
	switch {
	case g.Error != "" && got.Err != nil:
		return ""
	case g.Error != "":
		return fmt.Sprintf("no error (text %q, %d calls, finish %q) where the stream is an error (%s)", got.Text, len(got.Calls), got.FinishReason, g.Error)
	case got.Err != nil:
		return fmt.Sprintf("error %q on a good stream", got.Err)
	}
	got.Err = nil
	if d := cmp.Diff(g.want(), got); d != "" {
		return "(-agentvcr +genai):\n" + d
	}
	return ""
}

// disagreements are the fixtures where the SDK's answer is not the right
// one, with the reason (docs/quirks.md's Gemini table says the same). Every
// other fixture must agree; each of these must still disagree.
var disagreements = map[string]string{
	"args_split_name_only_first":            "the nameless functionCall parts that carry the args come out as calls of their own, with no name: the named call runs with {} (vscode-unify-chat-provider PR 49 replays them and gets a 400)",
	"cut_short":                             "a stream that ends before any finishReason ends the iteration without an error: the cut answer reads as complete",
	"malformed_function_call_no_content":    "finishReason MALFORMED_FUNCTION_CALL with no call is no error: the caller must check the finish reason itself (pydantic-ai PR 3300 retries on it)",
	"malformed_function_call_empty_content": "the same MALFORMED_FUNCTION_CALL without a call, with content {}: no error",
	// genai v1.79.1 has the partialArgs and willContinue fields but hands each chunk's parts
	// over as they came: a caller that gathers the calls gets the opening call with {} and one
	// nameless call per piece, and the arguments only by joining the pieces itself.
	"args_streamed":                      "streamed arguments are not joined: the call comes with {} and 8 nameless calls follow, one per piece",
	"args_streamed_two_calls":            "streamed arguments are not joined: each of the two calls comes twice, every time with {}",
	"args_streamed_no_end_part":          "streamed arguments are not joined: glob comes with {} and 2 nameless calls follow",
	"args_streamed_out_of_order":         "streamed arguments are not joined: only the args the opening part carried whole ({\"path\":\"src/calc.js\"}) come",
	"args_streamed_cut":                  "a stream cut inside a streamed call ends the iteration without an error: the call reads as complete, with {}",
	"args_streamed_max_tokens":           "finishReason MAX_TOKENS inside a streamed call is no error: the cut call comes with {}",
	"malformed_function_call_after_call": "MALFORMED_FUNCTION_CALL after a call part is no error: the call comes as if valid, and the caller must check the finish reason before running it",
	"unexpected_tool_call":               "UNEXPECTED_TOOL_CALL is no error: the call the request never allowed comes as any other",
	"prompt_blocked":                     "a blocked prompt is no error: an empty answer with the block reason, which the caller must check",
	"blocked_answer_no_content":          "an answer blocked before any part is no error: an empty answer with finish PROHIBITED_CONTENT",
	"finish_twice":                       "the first finishReason (STOP) is the one a caller that stops reading at it keeps; agentvcr takes the last (MAX_TOKENS), since parts came after the first",
}

func TestGenaiSDKOverFixtures(t *testing.T) {
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
			var g golden
			if err := json.Unmarshal(line, &g); err != nil {
				t.Fatalf("golden: %v", err)
			}
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := verdict(g, Read(withoutComments(body)))
			reason, known := disagreements[name]
			switch {
			case got != "" && !known:
				t.Errorf("genai disagrees with the golden: %s", got)
			case got == "" && known:
				t.Errorf("genai now agrees with the golden; drop the disagreement %q", reason)
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

// withoutComments drops a fixture's leading comment (its citation) and the
// blank line after it: genai refuses every chunk that does not start with
// "data:" (see TestGenaiRefusesCommentLines), and the shapes are compared
// without them.
func withoutComments(body []byte) []byte {
	if i := bytes.Index(body, []byte("\ndata:")); i >= 0 && bytes.HasPrefix(body, []byte(":")) {
		return body[i+1:]
	}
	return body
}

// A known disagreement on every fixture as it stands: genai's stream reader
// takes a line that is not "data:" for an error chunk, so an SSE comment
// (": keepalive", OpenRouter's ": OPENROUTER PROCESSING", each fixture's
// first line), which the SSE standard says to ignore, ends the stream with
// "invalid stream chunk" before any event. Gemini itself sends no comments;
// a proxy in front of it may.
func TestGenaiRefusesCommentLines(t *testing.T) {
	body, err := os.ReadFile(filepath.Join(fixtures, "clean_text_crlf.sse"))
	if err != nil {
		t.Fatal(err)
	}
	got := Read(body)
	if got.Err == nil || !strings.Contains(got.Err.Error(), "invalid stream chunk") || got.Text != "" {
		t.Errorf("genai now reads a stream with a comment line (%q, %v): drop this disagreement", got.Text, got.Err)
	}
	if got := Read(withoutComments(body)); got.Err != nil || got.Text == "" {
		t.Errorf("without its comment the same stream reads: %q, %v", got.Text, got.Err)
	}
}
