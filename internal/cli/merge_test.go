package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/golden"
)

// TestMergeFixtures runs `agentvcr merge FILE` on every stream fixture of
// package agent (chat completions and Responses, the format told from the
// stream, and named with -format) and compares stdout with the golden beside
// it.
func TestMergeFixtures(t *testing.T) {
	chat, err := filepath.Glob("../../agent/testdata/streams/*.sse")
	if err != nil || len(chat) == 0 {
		t.Fatalf("no stream fixtures: %v", err)
	}
	responses, err := filepath.Glob("../../agent/testdata/responses/*.sse")
	if err != nil || len(responses) == 0 {
		t.Fatalf("no Responses fixtures: %v", err)
	}
	var cases [][]string
	for _, path := range chat {
		cases = append(cases, []string{"merge", path}, []string{"merge", "-format", "chat", path})
	}
	for _, path := range responses {
		cases = append(cases, []string{"merge", path}, []string{"merge", "-format", "responses", path})
	}
	for _, args := range cases {
		path := args[len(args)-1]
		t.Run(strings.Join(args[1:len(args)-1], " ")+" "+strings.TrimSuffix(filepath.Base(path), ".sse"), func(t *testing.T) {
			goldenFile := strings.TrimSuffix(path, ".sse") + ".golden.json"
			code, stdout, stderr := Capture(Env{Dir: "."}, args...)
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
// agent merges to the summary in the golden beside it.
func TestMergeResponsesFixtures(t *testing.T) {
	files, err := filepath.Glob("../../agent/testdata/responses/*.sse")
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
			turn, err := agent.MergeResponsesStream(f)
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
	s := strings.TrimSuffix(strings.TrimPrefix(string(golden), `{"error":"`), "\"}\n")
	if strings.ContainsAny(s, `"\`) {
		t.Fatalf("golden error text needs unescaping: %s", golden)
	}
	return s
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
			wantStderr: "agentvcr merge: too many arguments (want at most one FILE)\n\n" + mergeUsage(),
		},
		{
			reason:     "an unknown flag is a usage error",
			args:       []string{"merge", "-x"},
			wantCode:   2,
			wantStderr: "flag provided but not defined: -x\n" + mergeUsage(),
		},
		{
			reason:     "-h prints the usage on stdout",
			args:       []string{"merge", "-h"},
			wantStdout: mergeUsage(),
		},
		{
			reason:     "an unknown format is a usage error naming the known ones",
			args:       []string{"merge", "-format", "gemini"},
			wantCode:   2,
			wantStderr: "agentvcr merge: -format: unknown api \"gemini\" (want " + apiNames() + ")\n",
		},
		{
			reason:     "a Responses stream on standard input is told from its events",
			args:       []string{"merge"},
			stdin:      "data: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"output_index\":0,\"delta\":\"hi\"}\n\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"output\":[]}}\n\n",
			wantStdout: `{"text":"hi","finish_reason":"stop","tool_turn":false,"tool_calls":[]}` + "\n",
		},
		{
			reason:     "-format chat reads a Responses stream as chat completions: no finish, truncated",
			args:       []string{"merge", "-format", "chat"},
			stdin:      "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"output\":[]}}\n\n",
			wantCode:   1,
			wantStdout: `{"error":"stream ended without a finish_reason or [DONE]"}` + "\n",
			wantStderr: "agentvcr merge: stream ended without a finish_reason or [DONE]\n",
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
