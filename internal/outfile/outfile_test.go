package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// A link planted in the folder's place after Open is not followed: the
// file lands in the folder that was there, the link's target stays empty.
func TestWriteIgnoresALinkPlantedAtTheFolder(t *testing.T) {
	base := t.TempDir()
	dir, target := filepath.Join(base, "reports"), filepath.Join(base, "elsewhere")
	for _, d := range []string{dir, target} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f, err := Open(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	moved := filepath.Join(base, "reports.moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, dir); err != nil {
		t.Fatal(err)
	}
	if err := f.Write(write("{}\n")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(moved, "report.json")); err != nil || string(got) != "{}\n" {
		t.Errorf("the folder opened at the start holds %q (%v), want the report", got, err)
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("the link's target holds %d files, want none", len(entries))
	}
}

// A link at the file's own name is replaced by the file, its target left
// as it was.
func TestWriteReplacesALinkAtTheName(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "authorized_keys")
	os.WriteFile(victim, []byte("keep me\n"), 0o644)
	path := filepath.Join(dir, "report.md")
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Write(write("| case |\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep me\n" {
		t.Errorf("the link's target now holds %q", got)
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		t.Errorf("the name is still a link (%v)", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "| case |\n" {
		t.Errorf("the file holds %q", got)
	}
}

// A write that fails leaves the old file as it was and no temporary file.
func TestWriteThatFailsLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	os.WriteFile(path, []byte("old\n"), 0o644)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	boom := errors.New("boom")
	if err := f.Write(func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("error %v, want boom named with the path", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the folder, want the old one only", len(entries))
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("the old file now holds %q", got)
	}
}

// A folder that does not exist is refused at Open, before anything runs.
func TestOpenRefusesAMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "report.json")
	if _, err := Open(path); err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("Open: %v, want an error naming %s", err, path)
	}
}
