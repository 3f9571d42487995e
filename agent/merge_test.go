package agent

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/golden"
)

// streamFixtures lists testdata/streams/*.sse; each begins with a comment line
// that says which quirk it reproduces and where that shape was seen.
func streamFixtures(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/streams/*.sse")
	if err != nil || len(files) == 0 {
		t.Fatalf("no stream fixtures: %v", err)
	}
	return files
}

// fixtureReason is the fixture's first comment line.
func fixtureReason(t testing.TB, path string) string {
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

func goldenPath(fixture string) string {
	return strings.TrimSuffix(fixture, ".sse") + ".golden.json"
}

func TestMergeStreamGolden(t *testing.T) {
	for _, path := range streamFixtures(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".sse")
		t.Run(name, func(t *testing.T) {
			reason := fixtureReason(t, path)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			turn, err := MergeStream(f)
			var got bytes.Buffer
			if werr := WriteSummary(&got, turn, err); werr != nil {
				t.Fatal(werr)
			}
			t.Log(reason)
			golden.Check(t, goldenPath(path), got.Bytes())
		})
	}
}
