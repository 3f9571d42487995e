package agentvcr_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/cli"
)

// TestAgentREADMEsRunnable keeps the commands each real agent's README
// opens with true: its install command is the one .ci/run runs in that
// folder (npm ci refuses some locks, and a README that says npm ci there
// sends a reader into that error), and each conform line parses as
// agentvcr conform's flags, names a wrapper script that exists and is
// executable, and speaks the wire format .ci/run runs that script with.
func TestAgentREADMEsRunnable(t *testing.T) {
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	run := strings.ReplaceAll(string(ci), "\\\n", " ") // continuation lines joined
	dirs, err := filepath.Glob("examples/agents/*/README.md")
	if err != nil || len(dirs) < 4 {
		t.Fatalf("%d agent READMEs (%v), want at least 4", len(dirs), err)
	}
	for _, readme := range dirs {
		dir := filepath.Dir(readme)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(readme)
			if err != nil {
				t.Fatal(err)
			}
			if first, _, _ := strings.Cut(string(text), "\n"); !strings.HasSuffix(first, " under agentvcr conform") {
				t.Errorf("the title %q: want it to end \" under agentvcr conform\" (every agent here is)", first)
			}
			lines := firstCodeBlock(string(text))
			if len(lines) < 2 {
				t.Fatalf("the first code block has %d commands, want the install command and a conform line", len(lines))
			}
			install := lines[0]
			want := regexp.MustCompile(`\(cd examples/agents/` + regexp.QuoteMeta(name) + ` && (npm (?:ci|install)[^)]*)\)`).FindStringSubmatch(run)
			if want == nil {
				t.Fatalf(".ci/run installs nothing in %s", dir)
			}
			if install != want[1] {
				t.Errorf("the README installs with %q, .ci/run with %q", install, want[1])
			}
			for _, line := range lines[1:] {
				args := strings.Fields(line)
				if len(args) < 4 || args[0] != "agentvcr" || args[1] != "conform" {
					t.Errorf("%q is no agentvcr conform line", line)
					continue
				}
				var stdout, stderr bytes.Buffer
				env := cli.ProcessEnv()
				env.Stdout, env.Stderr = &stdout, &stderr
				if code := cli.Main(env, append([]string{"conform", "-list"}, args[2:]...)); code != 0 {
					t.Errorf("%q: agentvcr conform exits %d: %s", line, code, strings.TrimSpace(stderr.String()))
				}
				script := args[len(args)-1]
				st, err := os.Stat(filepath.Join(dir, script))
				if err != nil || st.Mode()&0o111 == 0 {
					t.Errorf("%q: the wrapper %s is not an executable file of %s (%v)", line, script, dir, err)
				}
				api := "chat"
				for i, a := range args {
					if a == "-api" && i+1 < len(args) {
						api = args[i+1]
					}
				}
				if !ciRuns(run, name, filepath.Base(script), api) {
					t.Errorf("%q: .ci/run never runs %s/%s under conform -api %s", line, dir, filepath.Base(script), api)
				}
			}
		})
	}
}

// firstCodeBlock is the commands of a Markdown text's first fenced block,
// each without its trailing comment.
func firstCodeBlock(md string) []string {
	_, rest, ok := strings.Cut(md, "```\n")
	if !ok {
		return nil
	}
	block, _, _ := strings.Cut(rest, "```")
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// ciRuns reports whether .ci/run runs the agent's script under conform with
// -api api: on a conform line that names the script's path, or through its
// run_agent NAME API helper (which runs agent.sh).
func ciRuns(run, name, script, api string) bool {
	for _, line := range strings.Split(run, "\n") {
		if strings.Contains(line, "conform") && strings.Contains(line, "examples/agents/"+name+"/"+script) &&
			strings.Contains(line, "-api "+api) {
			return true
		}
		if f := strings.Fields(line); script == "agent.sh" && len(f) >= 3 && f[0] == "run_agent" && f[1] == name && f[2] == api {
			return true
		}
	}
	return false
}
