package wire_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
)

func TestByName(t *testing.T) {
	tests := []struct {
		reason  string
		name    string
		want    *agent.Format
		wantErr string
	}{
		{"chat completions by its name", "chat", chat.Format, ""},
		{"unknown name lists the known ones", "gemini", nil, `unknown api "gemini" (want ` + apiNames() + `)`},
	}
	for _, tt := range tests {
		got, err := wire.ByName(tt.name)
		if got != tt.want || fmt.Sprint(err) != fmt.Sprint(errOrNil(tt.wantErr)) {
			t.Errorf("%s: wire.ByName(%q) = %v, %v; want %v, %s", tt.reason, tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func apiNames() string {
	var names []string
	for _, a := range wire.All() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return errors.New(s)
}

func TestDetect(t *testing.T) {
	tests := []struct {
		reason string
		head   string
		want   *agent.Format
	}{
		{"a chat chunk", `data: {"id":"c","object":"chat.completion.chunk","choices":[]}` + "\n\n", chat.Format},
		{"an event: line of Messages", "event: message_start\ndata: {}\n\n", messages.Format},
		{"Messages data without event: lines", `data: {"type":"message_start","message":{"id":"m"}}` + "\n\n", messages.Format},
		{"a ping first (Messages)", ": comment\r\nevent: ping\r\ndata: {\"type\":\"ping\"}\r\n\r\n", messages.Format},
		{"a content block before message_start", `data: {"type":"content_block_start","index":0}` + "\n\n", messages.Format},
		{"Responses", "event: response.created\ndata: {\"type\":\"response.created\"}\n\n", responses.Format},
		{"a Responses type without an event line", `data: {"type":"response.output_text.delta","delta":"x"}`, responses.Format},
		{"a Responses type after another member", `data: {"sequence_number":0, "type": "response.created"}`, responses.Format},
		{"a chat chunk whose text looks like a type", `data: {"choices":[{"delta":{"content":"response."}}]}`, chat.Format},
		{"a Responses type without an event line", `data: {"type":"response.output_text.delta","delta":"x"}`, responses.Format},
		{"a Responses type after another member", `data: {"sequence_number":0, "type": "response.created"}`, responses.Format},
		{"a chat chunk whose text looks like a type", `data: {"choices":[{"delta":{"content":"response."}}]}`, chat.Format},
		{"an error first, then Messages", "event: error\ndata: {\"type\":\"error\"}\n\nevent: message_start\n", messages.Format},
		{"an error object alone", `data: {"type":"error","error":{"message":"x"}}` + "\n\n", chat.Format},
		{"[DONE] then nothing", "data: [DONE]\n\n", chat.Format},
		{"empty", "", chat.Format},
	}
	for _, tt := range tests {
		if got := wire.Detect([]byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect = %s, want %s", tt.reason, got.Name, tt.want.Name)
		}
	}
}

// Every format is found by its name and its path, and every fixture of a
// format's package is detected as that format and says what it reproduces
// on its first line: one test walks the list, so a new format is checked by
// being registered.
func TestEveryFormatIsFoundAndDetected(t *testing.T) {
	for _, f := range wire.All() {
		t.Run(f.Name, func(t *testing.T) {
			if got, err := wire.ByName(f.Name); got != f || err != nil {
				t.Errorf("ByName(%q) = %v, %v", f.Name, got, err)
			}
			for _, path := range []string{f.Path("m"), "/v1" + f.Path("m"), "/s/clean~index_from_1/v1" + f.Path("m"), f.BasePath + f.Path("m")} {
				if got := wire.ForPath(path); got != f {
					t.Errorf("ForPath(%q) = %v, want %s", path, got, f.Name)
				}
			}
			fixtures := streamtest.Fixtures(t, filepath.Join(f.Name, "testdata", "streams"))
			for _, path := range fixtures {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := wire.Detect(data); got != f {
					t.Errorf("%s: detected as %s", path, got.Name)
				}
				if reason := streamtest.Reason(t, path); len(reason) < 20 {
					t.Errorf("%s: the first comment %q is too short to say what it reproduces", path, reason)
				}
			}
		})
	}
	if got := wire.ForPath("/v1/models"); got != nil {
		t.Errorf("ForPath(/v1/models) = %s, want none", got.Name)
	}
}
