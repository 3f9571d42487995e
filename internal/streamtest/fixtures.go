package streamtest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/google/go-cmp/cmp"
)

// Fixtures lists dir/*.sse and fails the test when there is none.
func Fixtures(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.sse"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	return files
}

// FormatFixtures lists the stream fixtures of format f under wire, the
// folder that holds the formats' packages, and fails the test when there is
// none: wire/<name>/testdata/streams/*.sse for a format of SSE, and for a
// framed one (Bedrock's, a route of the Messages package) its framed
// streams, wire/*/testdata/<name>/*.eventstream.
func FormatFixtures(t testing.TB, wire string, f *agent.Format) []string {
	t.Helper()
	if f.Framing == nil {
		return Fixtures(t, filepath.Join(wire, f.Name, "testdata", "streams"))
	}
	files, err := filepath.Glob(filepath.Join(wire, "*", "testdata", f.Name, "*.eventstream"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s fixtures under %s: %v", f.Name, wire, err)
	}
	return files
}

// FixtureData is the value of every data line (after "data:", spaces
// trimmed) of every stream fixture of every format, wire being the folder
// that holds the formats' packages; it fails the test when fewer than 50
// fixtures are found.
func FixtureData(t testing.TB, wire string) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(wire, "*", "testdata", "streams", "*.sse"))
	if err != nil || len(paths) < 50 {
		t.Fatalf("%d fixtures in %s (%v)", len(paths), wire, err)
	}
	var all [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for line := range bytes.Lines(b) {
			if data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data:")); ok {
				all = append(all, bytes.TrimSpace(data))
			}
		}
	}
	return all
}

// Call is a function tool call with its id, name and arguments.
func Call(id, name, args string) agent.ToolCall {
	return agent.ToolCall{ID: id, Type: "function", Function: agent.FunctionCall{Name: name, Arguments: args}}
}

// ErrText is err's message, "" for nil.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzRechunk fuzzes merge over re-chunkings of the fixtures at paths: each
// merges to the same turn and the same error as the whole bytes.
func FuzzRechunk(f *testing.F, paths []string, merge func(io.Reader) (*agent.Turn, error)) {
	var fixtures [][]byte
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		fixtures = append(fixtures, data)
	}
	for i := range fixtures {
		f.Add(uint8(i), uint64(i), uint16(1))
		f.Add(uint8(i), uint64(i)*31+7, uint16(13))
	}
	f.Fuzz(func(t *testing.T, which uint8, seed uint64, maxPiece uint16) {
		data := fixtures[int(which)%len(fixtures)]
		wantTurn, wantErr := merge(bytes.NewReader(data))
		gotTurn, gotErr := merge(NewPieceReader(data, seed, 1+int(maxPiece)%512))
		if diff := cmp.Diff(wantTurn, gotTurn); diff != "" {
			t.Errorf("turn differs when re-chunked (-whole +pieces):\n%s", diff)
		}
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Errorf("error = %v, whole gave %v", gotErr, wantErr)
		}
	})
}

// Reason is a fixture's first comment line: what it reproduces and where
// that shape was seen. A fixture without one fails the test.
func Reason(t testing.TB, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if i := strings.IndexByte(line, '\r'); i >= 0 {
		line = line[:i]
	}
	if !strings.HasPrefix(line, ": ") {
		t.Fatalf("%s: first line must be a comment that says what it reproduces, got %q", path, line)
	}
	return strings.TrimPrefix(line, ": ")
}

// FuzzCalls are the calls FuzzMergeArgumentSplits streams: escapes, Chinese,
// an emoji outside the BMP, and an empty argument list.
var FuzzCalls = []agent.ToolCall{
	Call("call_a", "grep", `{"pattern":"say \"hi\" \\ \u4e2d","glob":"src/**"}`),
	Call("call_b", "read_file", `{"path":"中文/目录/文件.js","offset":1}`),
	Call("call_c", "glob", `{"pattern":"😀/**/*.js"}`),
	Call("call_d", "list_files", `{}`),
}
