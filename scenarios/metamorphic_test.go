package scenarios

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/cassettes"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/internal/cli"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// runCLI runs one agentvcr command line in dir with the given environment
// and returns its exit code, stdout and stderr.
func runCLI(dir string, vars map[string]string, transport http.RoundTripper, args ...string) (int, string, string) {
	return cli.Capture(cli.Env{Dir: dir, Getenv: cli.Vars(vars), Transport: transport}, args...)
}

// TestMetamorphicBenignQuirks replays every base cassette, in each wire
// format, through every benign quirk transform of that format (as a derived
// cassette) and under two re-chunking seeds: the transcript must be the
// clean one, byte for byte, and a Responses cassette's clean transcript is
// the chat-completions one. A quirk marked Warns must leave its warnings on
// stderr, and nothing else; any other leaves stderr empty.
func TestMetamorphicBenignQuirks(t *testing.T) {
	t.Parallel()
	metamorphic(t, "", quirk.All(), 10)
}

// TestMetamorphicBenignResponsesQuirks is the same for the base cassettes
// recorded in the OpenAI Responses format.
func TestMetamorphicBenignResponsesQuirks(t *testing.T) {
	t.Parallel()
	metamorphic(t, "responses/", quirk.All(), 10)
}

// TestMetamorphicBenignMessagesQuirks is the same for the base cassettes
// recorded in the Anthropic Messages format and the Messages quirks.
func TestMetamorphicBenignMessagesQuirks(t *testing.T) {
	t.Parallel()
	metamorphic(t, "messages/", quirk.OfAPI(messages.Format.Name), 14)
}

// metamorphic replays every base cassette under the folder under (of cassettes.FS)
// through every benign quirk of quirks that applies (at least least of
// them per cassette) and two re-chunking seeds, against the clean replay.
// The replays share one demo repository: the agent's tools only read it.
func metamorphic(t *testing.T, under string, quirks []quirk.Quirk, least int) {
	ws := filepath.Join(t.TempDir(), "ws") // removed once every subtest is done
	if err := demo.WriteSandbox(ws); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []tools.Lang{tools.ZH, tools.EN} {
		for _, script := range demo.Scripts(lang) {
			file := under + cassette.File(script.Name, lang)
			name := under + script.Name
			base, err := fs.ReadFile(cassettes.FS, file)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(file, func(t *testing.T) {
				t.Parallel()
				metamorphicCassette(t, ws, lang, name, base, quirks, least)
			})
		}
	}
}

func metamorphicCassette(t *testing.T, ws string, lang tools.Lang, name string, base []byte, quirks []quirk.Quirk, least int) {
	dir := t.TempDir()
	code, clean, stderr := runCLI(dir, nil, nil, "run", "-lang", string(lang), "-cassette", name, "-C", ws, "-rechunk", "whole")
	if code != 0 || stderr != "" {
		t.Fatalf("clean replay: exit %d: %s", code, stderr)
	}
	if chat, ok := strings.CutPrefix(name, "responses/"); ok {
		_, want, _ := runCLI(dir, nil, nil, "run", "-lang", string(lang), "-cassette", chat, "-C", ws, "-rechunk", "whole")
		if diff := cmp.Diff(want, clean); diff != "" {
			t.Errorf("the Responses transcript differs from the chat-completions one (-chat +responses):\n%s", diff)
		}
	}
	read, err := quirk.ReadCassette(base) // once, for every quirk
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for _, q := range quirks {
		if !q.Benign {
			continue
		}
		out, err := read.Apply(q, 7)
		if errors.Is(err, quirk.ErrNotApplicable) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		applied++
		path := filepath.Join(dir, q.Name+".yaml")
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, seed := range []string{"1", "2"} {
			code, got, stderr := runCLI(dir, nil, nil, "run", "-lang", string(lang), "-cassette", path, "-C", ws, "-seed", seed)
			if code != 0 || !onlyWarnings(stderr, q.Warns) {
				t.Errorf("%s seed %s: exit %d, stderr (warnings expected: %v):\n%s", q.Name, seed, code, q.Warns, stderr)
			}
			if q.Reasoning {
				var shown int
				if got, shown = withoutThinking(got); shown == 0 {
					t.Errorf("%s seed %s: the reasoning the quirk adds is not shown apart:\n%s", q.Name, seed, got)
				}
			}
			if diff := cmp.Diff(clean, got); diff != "" {
				t.Errorf("%s seed %s: transcript differs from the clean one (-clean +quirk):\n%s", q.Name, seed, diff)
			}
		}
	}
	if applied < least {
		t.Errorf("only %d benign quirks applied to %s", applied, name)
	}
}

// withoutThinking returns the transcript without its thinking lines (the
// reasoning agentvcr run shows apart), and how many there were.
func withoutThinking(transcript string) (string, int) {
	var kept []string
	n := 0
	for _, l := range strings.SplitAfter(transcript, "\n") {
		if strings.HasPrefix(l, "thinking: ") || strings.HasPrefix(l, "思考：") {
			n++
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, ""), n
}

// onlyWarnings reports whether stderr is empty (warns false) or holds
// warning lines and nothing else (warns true).
func onlyWarnings(stderr string, warns bool) bool {
	if !warns {
		return stderr == ""
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	for _, l := range lines {
		if !strings.HasPrefix(l, "agentvcr run: warning: turn ") {
			return false
		}
	}
	return stderr != ""
}

// TestMetamorphicBadArgs runs every base script live against the scripted
// gateway seen through the bad_args transform: the first call of every turn
// arrives with invalid JSON arguments. Each is fed back as a failure card,
// the loop still completes, and the exit code is 0.
func TestMetamorphicBadArgs(t *testing.T) {
	t.Parallel()
	const key = "sk-test-metamorphic-0123456789"
	url, stop := gateway.New(key, demo.Scripts(tools.ZH)...).Start()
	t.Cleanup(stop) // parallel subtests run after this function returns
	for _, api := range []struct{ name, quirk string }{{"chat", "bad_args"}, {"responses", "responses_bad_args"}} {
		q, ok := quirk.ByName(api.quirk)
		if !ok || q.Benign {
			t.Fatalf("%s quirk missing or marked benign", api.quirk)
		}
		badArgs(t, url, key, api.name, q)
	}
}

// badArgs runs every base script in one wire format through q.
func badArgs(t *testing.T, url, key, api string, q quirk.Quirk) {
	for _, script := range demo.Scripts(tools.ZH) {
		t.Run(api+"/"+script.Name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			if err := demo.WriteSandbox(ws); err != nil {
				t.Fatal(err)
			}
			transport := quirk.Transport(http.DefaultTransport, q, 1)
			vars := map[string]string{"OPENAI_API_KEY": key}
			code, out, stderr := runCLI(ws, vars, transport, "run", "-api", api, "-base-url", url, "-model", script.Name, "-max-turns", "20")
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing\n%s", code, stderr, out)
			}
			calls := 0
			for _, r := range script.Turns {
				calls += min(len(r.Calls), 1)
			}
			failures := strings.Count(out, "✘ ") // one per turn with calls: its first call
			if failures != calls || !strings.Contains(out, "参数不是合法的 JSON") {
				t.Errorf("want %d failure cards for invalid JSON, got %d:\n%s", calls, failures, out)
			}
			last := script.Turns[len(script.Turns)-1].Text
			if !strings.HasSuffix(out, last+"\n") {
				t.Errorf("the loop did not reach the conclusion %q:\n%s", last, out)
			}
		})
	}
}
