package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckedInCassettesMatchTheGenerator regenerates every cassette into a
// temporary folder and compares it, file by file and byte by byte, with
// ../../cassettes: a drift means someone edited a cassette by hand, or
// changed a script, a tool text or the request shape without running
// go generate ./cassettes.
func TestCheckedInCassettesMatchTheGenerator(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	got, want := yamlFiles(t, dir), yamlFiles(t, filepath.Join("..", "..", "cassettes"))
	if diff := cmp.Diff(names(want), names(got)); diff != "" {
		t.Fatalf("cassette files differ from the generator's (-checked in +generated):\n%s\nrun: go generate ./cassettes", diff)
	}
	for name, w := range want {
		if !bytes.Equal(w, got[name]) {
			t.Errorf("%s differs from what the generator writes; run: go generate ./cassettes", name)
		}
	}
	if len(want) < 10+28+10+16 {
		t.Errorf("only %d cassettes; want the 10 base ones, 28 derived, 10 in Messages and 16 derived from those", len(want))
	}
}

// yamlFiles reads every .yaml file under dir, keyed by slash path.
func yamlFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, pattern := range []string{"*.yaml", "quirks/*.yaml", "messages/*.yaml", "messages/quirks/*.yaml", "responses/*.yaml", "responses/quirks/*.yaml", "gemini/*.yaml"} {
		matches, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			b, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, m)
			out[filepath.ToSlash(rel)] = b
		}
	}
	return out
}

func names(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
