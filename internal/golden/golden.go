// Package golden compares test output with golden files, for the tests of
// every package: one -update flag, one way to rewrite a golden file and one
// way to show a difference.
//
// go test ./PKG -update rewrites the golden files the tests of PKG compare
// with, instead of comparing; read every changed line before committing.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files with what the tests get, instead of comparing")

// Updating reports whether the tests run with -update: golden content
// kept elsewhere than in a file of its own (testscript's txtar sections, a
// generated doc comment) is rewritten then too.
func Updating() bool { return *update }

// Check compares got with the golden file at path. Under -update it writes
// got to path (creating its folder) and passes.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-golden +got; go test -update rewrites it, then read the diff):\n%s", path, diff)
	}
}
