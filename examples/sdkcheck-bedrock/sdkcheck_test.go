package sdkcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// golden is a fixture's golden line: agentvcr merge's output.
type golden struct {
	Text         string `json:"text"`
	FinishReason string `json:"finish_reason"`
	ToolCalls    []Call `json:"tool_calls"`
	Error        string `json:"error"`
}

// verdict says how a reader's answer stands beside agentvcr's: "" when
// they agree, else how they differ.
func verdict(want golden, got Answer) string {
	switch {
	case want.Error != "" && got.Err != nil:
		return ""
	case want.Error != "":
		return fmt.Sprintf("no error (text %q, %d calls) where agentvcr refuses the stream (%s)", got.Text, len(got.Calls), want.Error)
	case got.Err != nil:
		return fmt.Sprintf("error %q on a stream agentvcr merges", got.Err)
	}
	var diffs []string
	if got.Text != want.Text {
		diffs = append(diffs, fmt.Sprintf("text %q, want %q", got.Text, want.Text))
	}
	if got.FinishReason != want.FinishReason {
		diffs = append(diffs, fmt.Sprintf("finish %q, want %q", got.FinishReason, want.FinishReason))
	}
	if d := cmp.Diff(want.ToolCalls, got.Calls); d != "" {
		diffs = append(diffs, "calls (-want +got): "+d)
	}
	return strings.Join(diffs, "; ")
}

// disagreements are the fixtures where the SDK's reader and agentvcr's
// part, each with why; every other fixture must agree, and each listed
// one must still disagree (a newer SDK that agrees makes the entry stale).
var disagreements = map[string]string{
	// The stream is cut 7 bytes before its end, inside its last message
	// (metadata, after messageStop). The bedrockruntime reader closes its
	// Events channel with Err() nil: a message cut short reads to it as
	// the stream's end. agentvcr's reader names the cut and its offset.
	// Here the turn was whole (messageStop came first); a stream cut
	// before messageStop is caught by its missing messageStop.
	"converse/truncated_inside_message": "the SDK's reader takes a message cut short for the end of the stream",
}

func fixtures(t *testing.T, dir, ext string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil || len(paths) < 7 {
		t.Fatalf("%d fixtures in %s (%v)", len(paths), dir, err)
	}
	return paths
}

func readGolden(t *testing.T, path string) golden {
	t.Helper()
	data, err := os.ReadFile(strings.TrimSuffix(path, ".eventstream") + ".golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// check compares a reader over every fixture of dir with the goldens.
func check(t *testing.T, dir string, read func([]byte) Answer) {
	seen := map[string]bool{}
	for _, path := range fixtures(t, dir, ".eventstream") {
		name := filepath.Base(dir) + "/" + strings.TrimSuffix(filepath.Base(path), ".eventstream")
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		v := verdict(readGolden(t, path), read(body))
		why, pinned := disagreements[name]
		seen[name] = true
		switch {
		case v != "" && !pinned:
			t.Errorf("%s: the SDK disagrees: %s", name, v)
		case v == "" && pinned:
			t.Errorf("%s: the SDK now agrees; drop its entry (%s)", name, why)
		case v != "":
			t.Logf("%s: pinned: %s", name, v)
		}
	}
	for name := range disagreements {
		if strings.HasPrefix(name, filepath.Base(dir)+"/") && !seen[name] {
			t.Errorf("%s is pinned but is no fixture", name)
		}
	}
}

// The SDK's event stream decoder over the InvokeModelWithResponseStream
// fixtures: the same text and calls, and an error on exactly the streams
// agentvcr refuses (an exception, a bad CRC, a stream cut in a message).
func TestInvokeFixtures(t *testing.T) {
	check(t, "../../wire/messages/testdata/bedrock", func(b []byte) Answer { return Invoke(bytes.NewReader(b)) })
}

// The bedrockruntime client's ConverseStream reader over the Converse
// fixtures, served on loopback.
func TestConverseFixtures(t *testing.T) {
	check(t, "../../wire/converse/testdata/converse", func(b []byte) Answer { return Converse(context.Background(), b) })
}

// The pins name fixtures that exist.
func TestPinsAreFixtures(t *testing.T) {
	for name := range disagreements {
		dir, file, _ := strings.Cut(name, "/")
		var path string
		switch dir {
		case "bedrock":
			path = "../../wire/messages/testdata/bedrock/" + file + ".eventstream"
		case "converse":
			path = "../../wire/converse/testdata/converse/" + file + ".eventstream"
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
