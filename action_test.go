package agentvcr_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/internal/cli"
)

// asAgentvcr makes the test binary run agentvcr itself when set: the
// action's script needs an agent, and this one is agentvcr's own.
const asAgentvcr = "AGENTVCR_TEST_RUN_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asAgentvcr) == "1" {
		os.Exit(cli.Main(cli.ProcessEnv(), os.Args[1:]))
	}
	os.Exit(m.Run())
}

// runAction runs .github/action/run.sh in a fresh workspace as the action
// does, with a fake job summary that already holds an earlier step's line,
// and returns its exit code, the summary, the step's outputs and the
// workspace.
func runAction(t *testing.T, inputs map[string]string) (code int, summary, outputs, ws string) {
	return runActionWith(t, inputs, true)
}

// runActionPrebuilt is runAction with this test binary as the agentvcr the
// script runs (AGENTVCR_ACTION_BIN), so that it builds nothing: the build
// is proven by the tests that use runAction.
func runActionPrebuilt(t *testing.T, inputs map[string]string) (code int, summary, outputs, ws string) {
	return runActionWith(t, inputs, false)
}

func runActionWith(t *testing.T, inputs map[string]string, build bool) (code int, summary, outputs, ws string) {
	t.Helper()
	ws = t.TempDir()
	summaryFile := filepath.Join(ws, "summary.md")
	outputFile := filepath.Join(ws, "output.txt")
	os.WriteFile(summaryFile, []byte("earlier step\n"), 0o644)
	script, err := filepath.Abs(".github/action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "GITHUB_STEP_SUMMARY="+summaryFile, "GITHUB_OUTPUT="+outputFile, "RUNNER_TEMP="+t.TempDir(), asAgentvcr+"=1")
	if !build {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, "AGENTVCR_ACTION_BIN="+exe)
	}
	for k, v := range inputs {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	t.Logf("run.sh:\n%s", out)
	s, _ := os.ReadFile(summaryFile)
	o, _ := os.ReadFile(outputFile)
	return code, string(s), string(o), ws
}

// ownAgent is the command line of agentvcr's own agent cut to one turn
// (so clean fails) in a fresh sandbox.
func ownAgent(t *testing.T) string {
	t.Helper()
	sandbox := t.TempDir()
	if err := demo.WriteSandbox(sandbox); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe + " run -model conform -C " + sandbox + " -max-turns 1"
}

// The action's script builds agentvcr, runs conform with the inputs, keeps
// report.json and report.xml, appends exactly this table to the summary
// and exits with conform's status.
func TestActionScriptWritesTheSummary(t *testing.T) {
	t.Parallel() // the script runs in a process of its own: the file checks run meanwhile
	agent := ownAgent(t)
	baseline := filepath.Join(t.TempDir(), "baseline.txt")
	os.WriteFile(baseline, []byte("crlf # follows from clean\n"), 0o644)
	code, summary, outputs, ws := runAction(t, map[string]string{"INPUT_COMMAND": agent, "INPUT_CASES": "clean,crlf,truncated", "INPUT_BASELINE": baseline})
	limit := "the agent never sent the tool results: 1 request, exit 1 (stderr: agentvcr run: agent: turn limit of 1 reached without a final answer: raise -max-turns, or ask a narrower question)"
	want := "earlier step\n\n### agentvcr conform -api chat\n\nAgent: `bash -c " + agent + "`\n\n| case | verdict | first difference |\n|---|---|---|\n" +
		"| `clean` | FAILURE | `" + limit + "` |\n" +
		"| `crlf` | FAILURE (baseline) | `clean fails too (read it first), so this may follow from it: " + limit + "` |\n" +
		"| `truncated` | SUCCESS |  |\n\n3 cases: 1 SUCCESS, 2 FAILURE (1 in the baseline), 0 WARNING, 0 SKIPPED\n"
	if code != 1 || summary != want {
		t.Errorf("exit %d, summary:\n%s\nwant:\n%s", code, summary, want)
	}
	if want := "artifact=agentvcr-conform\nreport-dir=agentvcr-report\nexit-code=1\n"; readOutputs(t, outputs) != want {
		t.Errorf("outputs %q, want %q", outputs, want)
	}
	for _, f := range []string{"report.json", "report.xml"} {
		if b, err := os.ReadFile(filepath.Join(ws, "agentvcr-report", f)); err != nil || !strings.Contains(string(b), "truncated") {
			t.Errorf("agentvcr-report/%s: %v", f, err)
		}
	}
}

// A shard: its own artifact name and the shard in the summary's heading;
// shard 2/2 of clean, crlf and truncated runs the probe and reports only
// truncated, which passes.
func TestActionScriptShard(t *testing.T) {
	t.Parallel()
	code, summary, outputs, _ := runActionPrebuilt(t, map[string]string{"INPUT_COMMAND": ownAgent(t), "INPUT_CASES": "clean,crlf,truncated", "INPUT_SHARD": "2/2", "INPUT_TIMEOUT": "20s"})
	if code != 0 || !strings.HasPrefix(summary, "earlier step\n\n### agentvcr conform -api chat, shard 2/2\n") ||
		!strings.HasSuffix(summary, "|---|---|---|\n| `truncated` | SUCCESS |  |\n\n1 cases: 1 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED\n") {
		t.Errorf("exit %d, summary:\n%s", code, summary)
	}
	if want := "artifact=agentvcr-conform-shard-2-of-2\nreport-dir=agentvcr-report\nexit-code=0\n"; readOutputs(t, outputs) != want {
		t.Errorf("outputs %q, want %q", outputs, want)
	}
	if !regexp.MustCompile(`\Aartifact<<(agentvcr_[0-9a-f]{24})\nagentvcr-conform-shard-2-of-2\n(agentvcr_[0-9a-f]{24})\n`).MatchString(outputs) {
		t.Errorf("outputs not in GitHub's delimiter form:\n%s", outputs)
	}
}

// case-dirs: each folder, comma-separated or one per line, is a -cases of
// its own; their case files run beside the catalog and have their rows in
// the summary. A bad case file stops the run before any report (exit 2).
func TestActionScriptCaseDirs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, d := range []struct{ dir, id string }{{"gateway a", "acme_one"}, {"b", "acme_two"}} {
		os.Mkdir(filepath.Join(root, d.dir), 0o755)
		os.WriteFile(filepath.Join(root, d.dir, d.id+".txtar"), []byte("id: "+d.id+"\napi: chat\ndoc: comments, then CRLF\nseen: ACME\nquirks: comments + crlf\n"), 0o644)
	}
	agent := strings.TrimSuffix(ownAgent(t), " -max-turns 1")
	dirs := filepath.Join(root, "gateway a") + " ,\n " + filepath.Join(root, "b") + "\n"
	code, summary, _, _ := runActionPrebuilt(t, map[string]string{"INPUT_COMMAND": agent, "INPUT_CASES": "clean,acme_one,acme_two", "INPUT_CASE_DIRS": dirs, "INPUT_TIMEOUT": "20s"})
	if code != 0 || !strings.HasSuffix(summary, "| `clean` | SUCCESS |  |\n| `acme_one` | SUCCESS |  |\n| `acme_two` | SUCCESS |  |\n\n3 cases: 3 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED\n") {
		t.Errorf("exit %d, summary:\n%s", code, summary)
	}
	os.WriteFile(filepath.Join(root, "b", "bad.txtar"), []byte("id: acme_one\n"), 0o644)
	code, summary, _, _ = runActionPrebuilt(t, map[string]string{"INPUT_COMMAND": agent, "INPUT_CASE_DIRS": dirs})
	if want := "earlier step\n\n### agentvcr conform\n\nNot run: agentvcr conform exited 2 before writing a report (its message is in the step's log)\n"; code != 2 || summary != want {
		t.Errorf("bad case file: exit %d, summary:\n%s", code, summary)
	}
}

// Bad inputs: exit 2 and a summary that says why nothing ran.
func TestActionScriptBadInputs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		inputs map[string]string
		want   string
	}{
		{map[string]string{"INPUT_COMMAND": ""},
			"earlier step\n\n### agentvcr conform\n\nNot run: the input command is empty: give the agent's command line, e.g. command: node agent.js\n"},
		{map[string]string{"INPUT_COMMAND": "true", "INPUT_SHARD": "4/3"},
			"earlier step\n\n### agentvcr conform\n\nNot run: agentvcr conform exited 2 before writing a report (its message is in the step's log)\n"},
		{map[string]string{"INPUT_COMMAND": "true", "INPUT_SHARD": "1/2\nexit-code=0"},
			"earlier step\n\n### agentvcr conform\n\nNot run: the input shard is not I/N (e.g. shard: 2/3)\n"},
		{map[string]string{"INPUT_COMMAND": "true", "INPUT_SHARD": "<h1>x</h1>"},
			"earlier step\n\n### agentvcr conform\n\nNot run: the input shard is not I/N (e.g. shard: 2/3)\n"},
		{map[string]string{"INPUT_COMMAND": "true", "INPUT_OUT_DIR": "report\nexit-code=0"},
			"earlier step\n\n### agentvcr conform\n\nNot run: the input out-dir holds a line break: give one folder\n"},
	} {
		code, summary, outputs, _ := runActionPrebuilt(t, tt.inputs)
		if code != 2 || summary != tt.want {
			t.Errorf("%v: exit %d, summary:\n%s\nwant:\n%s", tt.inputs, code, summary, tt.want)
		}
		if strings.Contains(outputs, "exit-code=0") {
			t.Errorf("%v: an input wrote an output line of its own:\n%s", tt.inputs, outputs)
		}
	}
}

// readOutputs reads $GITHUB_OUTPUT as GitHub does, NAME=VALUE lines and
// NAME<<DELIMITER blocks alike, into NAME=VALUE lines (a value's line
// breaks written \n), in order.
func readOutputs(t *testing.T, file string) string {
	t.Helper()
	var out strings.Builder
	lines := strings.Split(file, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		if name, delim, ok := strings.Cut(line, "<<"); ok {
			var value []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				value = append(value, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("output %s: the delimiter %q never comes:\n%s", name, delim, file)
			}
			out.WriteString(name + "=" + strings.Join(value, `\n`) + "\n")
			continue
		}
		out.WriteString(line + "\n")
	}
	return out.String()
}
