package chat

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// TestFixturesSayWhatTheyReproduce: every stream fixture opens with a
// comment line saying which shape it reproduces and where it was seen. Their
// goldens are what agentvcr merge prints (internal/cli's TestMergeFixtures).
func TestFixturesSayWhatTheyReproduce(t *testing.T) {
	for _, path := range append(streamFixtures(t), responsesFixtures(t)...) {
		if reason := fixtureReason(t, path); len(reason) < 20 {
			t.Errorf("%s: the first comment %q is too short to say what it reproduces", path, reason)
		}
	}
}
