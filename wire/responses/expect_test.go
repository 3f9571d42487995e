package responses

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
	"github.com/google/go-cmp/cmp"
)

// TestStreamLength: the readers that know their stream's length say it;
// a pipe and a reader that hides it say 0.
func TestStreamLength(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sse")
	if err := os.WriteFile(path, []byte("data: {}\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, tt := range []struct {
		name string
		r    io.Reader
		want int64
	}{
		{"bytes.Reader", bytes.NewReader(make([]byte, 7)), 7},
		{"strings.Reader", strings.NewReader("abc"), 3},
		{"regular file", f, 10},
		{"pipe", pr, 0},
		{"hidden", struct{ io.Reader }{strings.NewReader("abc")}, 0},
	} {
		if got := streamLength(tt.r); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestMergePresizedFromLength: a stream of thousands of calls merges to the
// same turn whether the merger knows its length (and makes its maps of ids
// as large as the first 1024 ids say at once) or not, and with fewer
// allocations when it does.
func TestMergePresizedFromLength(t *testing.T) {
	stream, calls := benchstream.Responses(16 << 20)
	if calls < 2*presizeAt {
		t.Fatalf("%d calls: too few to presize", calls)
	}
	known, err := Merge(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := Merge(struct{ io.Reader }{bytes.NewReader(stream)})
	if err != nil {
		t.Fatal(err)
	}
	if len(known.ToolCalls) != calls {
		t.Fatalf("%d calls, want %d", len(known.ToolCalls), calls)
	}
	if diff := cmp.Diff(unknown, known); diff != "" {
		t.Fatalf("turn (-length unknown +length known):\n%s", diff)
	}
	allocs := func(hide bool) float64 {
		br := bytes.NewReader(stream)
		var r io.Reader = br
		if hide {
			r = struct{ io.Reader }{br}
		}
		return testing.AllocsPerRun(1, func() {
			br.Reset(stream)
			if _, err := Merge(r); err != nil {
				t.Fatal(err)
			}
		})
	}
	presized, grown := allocs(false), allocs(true)
	if presized >= grown {
		t.Fatalf("%v allocations with the length known, %v without: want fewer", presized, grown)
	}
}
