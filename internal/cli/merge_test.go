package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/internal/golden"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// TestMergeFixtures runs `agentvcr merge FILE` on every stream fixture of
// every wire format (wire.All), the format detected from the first event, and compares stdout with the golden
// beside it.
func TestMergeFixtures(t *testing.T) {
	var files []string
	for _, f := range wire.All() {
		if f.Carries != nil && f.Framing == nil {
			continue // its streams are the carried format's: their fixtures are that format's
		}
		files = append(files, streamtest.FormatFixtures(t, "../../wire", f)...)
	}
	for _, path := range files {
		stem := strings.TrimSuffix(path, filepath.Ext(path))
		t.Run(filepath.Base(stem), func(t *testing.T) {
			goldenFile := stem + ".golden.json"
			code, stdout, stderr := Capture(Env{Dir: "."}, "merge", path)
			golden.Check(t, goldenFile, []byte(stdout))
			want := []byte(stdout)
			wantCode, wantStderr := 0, ""
			if bytes.HasPrefix(want, []byte(`{"error":`)) {
				wantCode = 1
				wantStderr = "agentvcr merge: " + errorText(t, want) + "\n"
			}
			if code != wantCode {
				t.Errorf("exit code = %d, want %d", code, wantCode)
			}
			if diff := cmp.Diff(wantStderr, stderr); diff != "" {
				t.Errorf("stderr mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMergeResponsesFixtures: every Responses stream fixture of package
// wire/responses merges to the summary in the golden beside it.
func TestMergeResponsesFixtures(t *testing.T) {
	files, err := filepath.Glob("../../wire/responses/testdata/streams/*.sse")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Responses fixtures: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sse"), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			turn, err := responses.Merge(f)
			var got bytes.Buffer
			if werr := writeSummary(&got, turn, err); werr != nil {
				t.Fatal(werr)
			}
			golden.Check(t, strings.TrimSuffix(path, ".sse")+".golden.json", got.Bytes())
		})
	}
}

func errorText(t *testing.T, golden []byte) string {
	t.Helper()
	var e struct{ Error string }
	if err := json.Unmarshal(golden, &e); err != nil {
		t.Fatalf("golden error line: %v: %s", err, golden)
	}
	return e.Error
}

func TestMergeCommand(t *testing.T) {
	const stream = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\n"
	tests := []struct {
		reason     string
		args       []string
		stdin      string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{
			reason:     "without FILE the stream is read from standard input",
			args:       []string{"merge"},
			stdin:      stream,
			wantStdout: `{"text":"hi","finish_reason":"stop","tool_turn":false,"tool_calls":[]}` + "\n",
		},
		{
			reason:     "an empty input is a truncated stream",
			args:       []string{"merge"},
			wantCode:   1,
			wantStdout: `{"error":"stream ended without a finish_reason or [DONE]"}` + "\n",
			wantStderr: "agentvcr merge: stream ended without a finish_reason or [DONE]\n",
		},
		{
			reason:     "a chunk that is not JSON is an error",
			args:       []string{"merge"},
			stdin:      "data: {oops\n\n",
			wantCode:   1,
			wantStdout: `{"error":"chunk 1 is not a valid chunk: invalid character 'o' looking for beginning of object key string"}` + "\n",
			wantStderr: "agentvcr merge: chunk 1 is not a valid chunk: invalid character 'o' looking for beginning of object key string\n",
		},
		{
			reason:     "two files are a usage error",
			args:       []string{"merge", "a.sse", "b.sse"},
			wantCode:   2,
			wantStderr: "agentvcr merge: too many arguments (want at most one FILE)\n\n" + mergeUsage,
		},
		{
			reason:     "an unknown flag is a usage error",
			args:       []string{"merge", "-x"},
			wantCode:   2,
			wantStderr: "flag provided but not defined: -x\n" + mergeUsage,
		},
		{
			reason:     "-h prints the usage on stdout",
			args:       []string{"merge", "-h"},
			wantStdout: mergeUsage,
		},
		{
			reason:     "a Messages stream on standard input is detected from its first event",
			args:       []string{"merge"},
			stdin:      "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n",
			wantStdout: `{"text":"","finish_reason":"end_turn","tool_turn":false,"tool_calls":[]}` + "\n",
		},
		{
			reason:     "-format messages reads a stream that starts with no event as Messages",
			args:       []string{"merge", "-api", "messages"},
			wantCode:   1,
			wantStdout: `{"error":"stream ended without a stop_reason or message_stop"}` + "\n",
			wantStderr: "agentvcr merge: stream ended without a stop_reason or message_stop\n",
		},
		{
			reason:     "-format chat reads a Messages stream as chat chunks: nothing merges",
			args:       []string{"merge", "-format", "chat"},
			stdin:      "event: message_start\ndata: {\"type\":\"message_start\"}\n\n",
			wantCode:   1,
			wantStdout: `{"error":"stream ended without a finish_reason or [DONE]"}` + "\n",
			wantStderr: "agentvcr merge: stream ended without a finish_reason or [DONE]\n",
		},
		{
			reason:     "an unknown -format is a usage error, before the file is opened",
			args:       []string{"merge", "-format", "grpc", "testdata/no-such.sse"},
			wantCode:   2,
			wantStderr: "agentvcr merge: -api: unknown api \"grpc\" (want " + strings.Join(wire.Names(), ", ") + ")\n\n" + mergeUsage,
		},
		{
			reason:     "a missing file is reported on stderr with nothing on stdout",
			args:       []string{"merge", "testdata/no-such.sse"},
			wantCode:   1,
			wantStderr: "agentvcr merge: open testdata/no-such.sse: no such file or directory\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			code, stdout, stderr := Capture(Env{Dir: ".", Stdin: strings.NewReader(tt.stdin)}, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code = %d, want %d", code, tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantStdout, stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantStderr, stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
