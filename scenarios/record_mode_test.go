package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// TestRecordMode runs a scenario the way go test ./scenarios -record does,
// with the scripted gateway standing in for the live one: the cassette
// inside the scenario and the embedded one it names are re-recorded where
// they came from, without the key, and the transcript is the live one.
func TestRecordMode(t *testing.T) {
	const key = "sk-test-record-mode-0123456789"
	url, stop := gateway.New(key, demo.Scripts(tools.ZH)...).Start()
	defer stop()

	dir, cassetteDir := t.TempDir(), t.TempDir()
	old, err := os.ReadFile(filepath.Join("..", "cassettes", "parallel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("accept_demo.txtar")
	if err != nil {
		t.Fatal(err)
	}
	acceptDemo := txtar.Parse(want)
	script := &txtar.Archive{
		Comment: []byte("# re-records rec.yaml (in this file) and the embedded demo cassette\n" +
			"sandbox ws\nagent -C ws -cassette rec.yaml\ncmp stdout want\nagent -cassette demo\ncmp stdout want\n" +
			"agent -inject bad_args\n"),
		Files: []txtar.File{{Name: "rec.yaml", Data: old}, {Name: "want", Data: acceptDemo.Files[0].Data}},
	}
	path := filepath.Join(dir, "harness_rec.txtar")
	if err := os.WriteFile(path, txtar.Format(script), 0o644); err != nil {
		t.Fatal(err)
	}
	s := suite{dir: dir, record: &recording{baseURL: url, key: key, model: demo.ScriptDemo, cassetteDir: cassetteDir}}
	// testscript runs scripts as parallel subtests: t.Run waits for them.
	t.Run("record", func(t *testing.T) { testscript.Run(t, s.params()) })

	after, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := string(after.Files[0].Data)
	embedded, err := os.ReadFile(filepath.Join(cassetteDir, "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]string{"rec.yaml in the scenario": rec, "demo.yaml": string(embedded)} {
		if !strings.Contains(c, `"model":"demo"`) || strings.Count(c, "\n    - request:\n") != 4 {
			t.Errorf("%s was not re-recorded from the demo script:\n%.300s", name, c)
		}
		if strings.Contains(c, key) || strings.Contains(c, "sk-test") {
			t.Errorf("%s holds the key", name)
		}
	}
	if _, err := os.Stat(filepath.Join(cassetteDir, "demo_bad_args.yaml")); err == nil {
		t.Error("-inject was re-recorded; a live model cannot reproduce a fault variant")
	}
}
