package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A symbolic link planted under -out, at the case's folder or at a file in
// it, makes conform refuse -out with a line that names it, and nothing is
// written where it points.
func TestConformOutRefusesLinks(t *testing.T) {
	for _, plant := range []string{"clean", "clean/stdout"} {
		t.Run(plant, func(t *testing.T) {
			dir := t.TempDir()
			out, outside := filepath.Join(dir, "out"), filepath.Join(dir, "outside")
			for _, d := range []string{filepath.Dir(filepath.Join(out, plant)), outside} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			target := outside
			if plant == "clean/stdout" {
				target = filepath.Join(outside, "stdout")
			}
			if err := os.Symlink(target, filepath.Join(out, plant)); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := Capture(Env{Dir: dir}, "conform", "-q", "-out", "out", "-case", "clean", "--", "sh", "-c", "echo agent output; exit 3")
			want := "agentvcr conform: -out " + out + ": " + plant + " is a symbolic link to " + target + ": conform follows no link under -out; remove it\n"
			if code != 1 || stderr != want {
				t.Errorf("exit %d, stderr %q\nwant exit 1, %q", code, stderr, want)
			}
			if entries, _ := os.ReadDir(outside); len(entries) > 0 {
				t.Errorf("conform wrote %s through the link", entries[0].Name())
			}
		})
	}
}

// -out holds each case's files, made fresh, and env-dropped.txt: the names
// of the credentials the agent did not get, and no value.
func TestConformOutFiles(t *testing.T) {
	t.Setenv("GOOGLE_API_KEY", "real-google")
	t.Setenv("CONFORM_CLI_KEEP_TOKEN", "real-kept")
	dir := t.TempDir()
	stale := filepath.Join(dir, "out", "clean", "request-9.json")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := Capture(Env{Dir: dir}, "conform", "-out", "out", "-case", "clean", "-pass-env", "CONFORM_CLI_KEEP_TOKEN",
		"--", "sh", "-c", "echo \"$GOOGLE_API_KEY $CONFORM_CLI_KEEP_TOKEN\"; exit 3")
	if code != 1 || !strings.Contains(stderr, "failed, and not in the baseline: clean") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "out", "clean"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"stderr", "stdout"}) {
		t.Errorf("out/clean holds %v, want [stderr stdout]", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out", "clean", "stdout")); string(b) != " real-kept\n" {
		t.Errorf("the agent printed %q, want %q", b, " real-kept\n")
	}
	b, err := os.ReadFile(filepath.Join(dir, "out", "env-dropped.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if !slices.Contains(lines, "GOOGLE_API_KEY") || slices.Contains(lines, "CONFORM_CLI_KEEP_TOKEN") || strings.Contains(string(b), "real-") {
		t.Errorf("env-dropped.txt:\n%s", b)
	}
}

// The report folders are opened before the agent runs: an agent that moves
// the folders of -json, -junit and -out away and plants links to a folder
// of its own in their place gets nothing written there; the reports land
// in the folders that were there when the run began.
func TestConformReportsIgnoreLinksPlantedDuringTheRun(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"reports", "elsewhere"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	plant := "mv reports reports.moved && ln -s elsewhere reports && mv out out.moved && ln -s elsewhere out; exit 3"
	code, _, stderr := Capture(Env{Dir: dir}, "conform", "-json", "reports/report.json", "-junit", "reports/report.xml", "-out", "out",
		"-case", "clean", "--", "sh", "-c", plant)
	if code != 1 || !strings.Contains(stderr, "failed, and not in the baseline: clean") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "elsewhere")); len(entries) > 0 {
		t.Errorf("conform wrote %s through a link the agent planted", entries[0].Name())
	}
	for _, f := range []string{"reports.moved/report.json", "reports.moved/report.xml", "out.moved/clean/stdout", "out.moved/env-dropped.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// A report folder that does not exist is a usage error before the agent
// runs, not a report lost after it.
func TestConformReportFolderMissing(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := Capture(Env{Dir: dir}, "conform", "-json", "no/report.json", "-case", "clean", "--", "sh", "-c", "touch ran")
	want := "agentvcr conform: -json: " + filepath.Join(dir, "no/report.json") + ": open " + filepath.Join(dir, "no") + ": no such file or directory\n"
	if code != 2 || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, stderr %q\nwant exit 2, %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the agent ran")
	}
}
