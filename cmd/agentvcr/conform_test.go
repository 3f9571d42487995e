package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/demo"
	conformpkg "github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/internal/cli"
	"github.com/agentvcr/agentvcr/internal/racetest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"
)

// asAgentvcr makes the test binary run agentvcr itself when set: conform
// needs a command to run, and this one is the binary under test.
const asAgentvcr = "AGENTVCR_TEST_RUN_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asAgentvcr) == "1" {
		main()
	}
	// Every agent the tests start is agentvcr, whose retries of fault_500
	// wait 1 ms apart instead of the default 0.5 s and 1 s (a Retry-After,
	// fault_429's, is still waited out): set once here, not with t.Setenv,
	// so that the tests can run in parallel.
	os.Setenv(asAgentvcr, "1")
	os.Setenv("AGENTVCR_RETRY_BACKOFF", "1ms")
	os.Exit(racetest.RunWaiting(m))
}

// ownAgent returns the command line of agentvcr's own agent, live, on a
// fresh sandbox (TestMain set the variable that makes the test binary
// agentvcr).
func ownAgent(t *testing.T, extra ...string) []string {
	t.Helper()
	ws := t.TempDir()
	if err := demo.WriteSandbox(ws); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"--", exe, "run", "-model", "conform", "-C", ws}, extra...)
}

// conform runs agentvcr conform in the test process.
func conform(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	env := cli.ProcessEnv()
	env.Stdout, env.Stderr = &out, &errs
	code = cli.Main(env, append([]string{"conform", "-q"}, args...)) // -q: the tests read stderr whole; TestConformProgressLines reads the progress
	return code, out.String(), errs.String()
}

// The baseline's two ways to fail a run: a failure it does not list, and an
// entry whose case passes. The reports are written either way.
func TestConformExitStatusAndReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	baseline := filepath.Join(dir, "baseline")
	os.WriteFile(baseline, []byte("truncated # cut streams were once taken for finished turns\n"), 0o644)
	code, stdout, stderr := conform(append([]string{"-case", "clean,truncated", "-baseline", baseline,
		"-json", filepath.Join(dir, "report.json"), "-junit", filepath.Join(dir, "report.xml"), "-out", filepath.Join(dir, "out")},
		ownAgent(t)...)...)
	wantErr := "agentvcr conform: the baseline lists cases that now pass: truncated (remove them from " + baseline + ")\n"
	if code != 1 || stderr != wantErr || !strings.Contains(stdout, "2 cases: 2 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED") {
		t.Errorf("stale baseline: exit %d\nstderr %q\nwant   %q\n%s", code, stderr, wantErr, stdout)
	}
	var checks []struct{ ID, Status string }
	data, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if err := json.Unmarshal(data, &checks); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]struct{ ID, Status string }{{"clean", "SUCCESS"}, {"truncated", "SUCCESS"}}, checks); diff != "" {
		t.Errorf("report.json (-want +got):\n%s", diff)
	}
	if xml, _ := os.ReadFile(filepath.Join(dir, "report.xml")); !bytes.Contains(xml, []byte(`<testsuites name="agentvcr conform" tests="2" failures="0" skipped="0">`)) {
		t.Errorf("report.xml:\n%s", xml)
	}
	// -out keeps each case's output and requests: clean sent two, the
	// second carrying the probe's two calls and their results.
	second, err := os.ReadFile(filepath.Join(dir, "out", "clean", "request-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(second, []byte(`"role":"tool"`)); n != 2 {
		t.Errorf("clean/request-2.json has %d tool messages, want 2:\n%s", n, second)
	}
	stderrOut, _ := os.ReadFile(filepath.Join(dir, "out", "truncated", "stderr"))
	if want := "agentvcr run: agent: request 1: stream ended without a finish_reason or [DONE]\n"; string(stderrOut) != want {
		t.Errorf("truncated/stderr = %q, want %q", stderrOut, want)
	}

	// An agent that stops after one request never answers the calls.
	code, stdout, stderr = conform(append([]string{"-case", "clean"}, ownAgent(t, "-max-turns", "1")...)...)
	wantErr = "agentvcr conform: failed, and not in the baseline: clean (fix the agent, or list them in a -baseline file)\n"
	if code != 1 || stderr != wantErr || !strings.Contains(stdout, "the agent never sent the tool results: 1 request, exit 1 (stderr: agentvcr run: agent: turn limit of 1 reached without a final answer") {
		t.Errorf("unexpected failure: exit %d\nstderr %q\nwant   %q\n%s", code, stderr, wantErr, stdout)
	}
}

// skippedByDemo are the quirks recorded mode skips on the demo cassette:
// its replies have only one call each, which they leave as they are.
const skippedByDemo = "interleaved_calls,all_index_0"

// Recorded mode on agentvcr's own cassettes: the agent sends what it sent
// when they were recorded, and the same under every benign quirk. The whole
// recorded catalog runs on agentvcr run in process (recordedInProcess, the same
// command's code); the real binary runs the replay and the cases the demo
// cassette skips, through agentvcr conform -cassette, so that the command's
// recorded mode, its skips and its exit status are checked on a process.
func TestConformOwnAgentRecorded(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"parallel", "demo"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cassette := filepath.Join("..", "..", "cassettes", name+".yaml")
			args := ownAgent(t)
			args[4] = name // -model
			want := map[string]string{"parallel": "23 cases: 23 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED",
				"demo": "23 cases: 21 SUCCESS, 0 FAILURE, 0 WARNING, 2 SKIPPED"}[name]
			if table := recordedInProcess(t, wire.Default(), cassette, args[2:]); !strings.Contains(table, want) {
				t.Errorf("%s in process: want %q in\n%s", name, want, table)
			}
			code, stdout, stderr := conform(append([]string{"-cassette", cassette, "-case", "replay," + skippedByDemo, "-p", "8"}, args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("%s: exit %d\n%s\n%s", name, code, stdout, stderr)
			}
			want = map[string]string{"parallel": "3 cases: 3 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED",
				"demo": "3 cases: 1 SUCCESS, 0 FAILURE, 0 WARNING, 2 SKIPPED"}[name]
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: want %q in\n%s", name, want, stdout)
			}
		})
	}
}

// measured finds the time a stall case measured: "after 1.062s:".
var measured = regexp.MustCompile(`after [0-9.]+m?s:`)

// Conform of agentvcr's own agent, live against each case's URL, in each
// wire format (-api, the agent run with the same -api; for Messages it
// reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY), with an empty baseline:
// every case passes, with the details the command's own messages give.
// The cases are those whose details are checked, a few of every tier
// (quirk, broken stream, fault): each runs agentvcr run in process
// (conformInProcess, the command's own code), and the clean case and the
// stall also start the real command through agentvcr conform, a process
// that answers with exit 0 and one that gives up with exit 1. Every case
// of every catalog runs on the same agent in process in conformtest's
// TestOwnAgentEveryFormat, and on this command in CI's conform steps.
// The idle timeout is short so the stall case ends in a fraction of a
// second (conform writes each answer at once, so only the stall is silent
// that long); IDLE in a detail stands for it.
func TestConformOwnAgentEveryFormat(t *testing.T) {
	idle := (500 * time.Millisecond * racetest.Slow).String()
	tests := []struct {
		api, summary string
		details      map[string]string // some cases' details
	}{
		{"chat", "8 cases: 8 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED", map[string]string{
			"clean":           "2 calls re-sent and answered; exit 0",
			"ids_dropped":     "2 calls re-sent and answered; exit 0",
			"truncated":       "gave up with exit 1 after 1 attempt (stderr: agentvcr run: agent: request 1: stream ended without a finish_reason or [DONE])",
			"midstream_error": "gave up with exit 1 after 1 attempt (stderr: agentvcr run: agent: request 1: stream error: Provider returned error (code 502) (sent by the gateway inside an HTTP 200 stream): run again; if it persists, the gateway or the model is failing)",
			"fault_429":       "retried and finished (3 requests)",
			"fault_500":       "retried and finished (3 requests)",
			"fault_stall":     "gave up on the stalled stream after TIME: exit 1 (stderr: agentvcr run: the stream stalled: no event for IDLE (-idle-timeout IDLE): run again, or raise -idle-timeout for a model that thinks long before it answers)",
			"fault_reset":     "gave up with exit 1 (stderr: agentvcr run: agent: request 1: reading stream: unexpected EOF)",
		}},
		{"messages", "10 cases: 10 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED", map[string]string{
			"messages_echo_thinking":        "2 calls re-sent and answered, thinking sent back; exit 0",
			"messages_clean":                "2 calls re-sent and answered; exit 0",
			"messages_index_from_1":         "2 calls re-sent and answered; exit 0",
			"messages_text_after_tool_use":  "2 calls re-sent and answered; exit 0",
			"messages_overloaded_midstream": "gave up with exit 1 after 1 attempt (stderr: agentvcr run: agent: request 1: stream error: Overloaded (type overloaded_error) (sent by the gateway inside an HTTP 200 stream): run again; if it persists, the gateway or the model is failing)",
			"messages_cut_before_stop":      "gave up with exit 1 after 1 attempt (stderr: agentvcr run: agent: request 1: stream ended without a stop_reason or message_stop)",
			"messages_fault_429":            "retried and finished (3 requests)",
			"messages_fault_500":            "retried and finished (3 requests)",
			"messages_fault_stall":          "gave up on the stalled stream after TIME: exit 1 (stderr: agentvcr run: the stream stalled: no event for IDLE (-idle-timeout IDLE): run again, or raise -idle-timeout for a model that thinks long before it answers)",
			"messages_fault_reset":          "gave up with exit 1 (stderr: agentvcr run: agent: request 1: reading stream: unexpected EOF)",
		}},
		{"responses", "10 cases: 10 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED", map[string]string{
			"responses_echo_reasoning":  "2 calls re-sent and answered, calls sent by call_id without reasoning items (valid: the model does not see its reasoning again); exit 0",
			"responses_clean":           "2 calls re-sent and answered; exit 0",
			"responses_ids_rotate":      "2 calls re-sent and answered; exit 0",
			"responses_completed_empty": "2 calls re-sent and answered; exit 0",
			"responses_bad_args":        "2 calls re-sent and answered; exit 0",
			"responses_truncated":       "gave up with exit 1 after 1 attempt (stderr: agentvcr run: agent: request 1: stream ended before response.completed)",
			"responses_second_response": "gave up with exit 1 after 1 attempt (stderr: agentvcr run: agent: request 1: a second response in one stream: resp_conform_1_again after resp_conform_1 (event 33))",
			"responses_fault_429":       "retried and finished (3 requests)",
			"responses_fault_stall":     "gave up on the stalled stream after TIME: exit 1 (stderr: agentvcr run: the stream stalled: no event for IDLE (-idle-timeout IDLE): run again, or raise -idle-timeout for a model that thinks long before it answers)",
			"responses_fault_reset":     "gave up with exit 1 (stderr: agentvcr run: agent: request 1: reading stream: unexpected EOF)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.api, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			baseline, report := filepath.Join(dir, "baseline"), filepath.Join(dir, "report.json")
			if err := os.WriteFile(baseline, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			args := ownAgent(t, "-api", tt.api, "-idle-timeout", idle)
			format, err := conformpkg.FormatByName(tt.api)
			if err != nil {
				t.Fatal(err)
			}
			cases, err := conformpkg.SelectCases(format.Cases(), slices.Sorted(maps.Keys(tt.details)))
			if err != nil {
				t.Fatal(err)
			}
			// The real command on a process, the clean case and the stall,
			// while the in process run waits out fault_429's Retry-After.
			var process []string
			for _, c := range cases {
				if strings.HasSuffix(c.ID, "clean") || strings.HasSuffix(c.ID, "fault_stall") {
					process = append(process, c.ID)
				}
			}
			var wg sync.WaitGroup
			defer wg.Wait()
			var code int
			var stdout, stderr string
			wg.Go(func() {
				code, stdout, stderr = conform(append([]string{"-api", tt.api, "-case", strings.Join(process, ","), "-baseline", baseline, "-json", report,
					"-timeout", "20s", "-p", "8"}, args...)...)
			})

			results, table := conformInProcess(t, conformpkg.Options{Format: format, Cases: cases, Timeout: 20 * time.Second}, args[2:])
			if !strings.Contains(table, tt.summary) {
				t.Errorf("in process: want %q in\n%s", tt.summary, table)
			}
			var checks []struct{ ID, Details string }
			for _, r := range results {
				checks = append(checks, struct{ ID, Details string }{r.Case.ID, r.Details})
			}
			checkDetails(t, "in process", checks, tt.details, idle)

			wg.Wait()
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			if want := "2 cases: 2 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED"; !strings.Contains(stdout, want) {
				t.Errorf("want %q in\n%s", want, stdout)
			}
			checks = nil
			data, _ := os.ReadFile(report)
			if err := json.Unmarshal(data, &checks); err != nil {
				t.Fatal(err)
			}
			if len(checks) != len(process) {
				t.Errorf("report.json has %d cases, want %d (%s)", len(checks), len(process), process)
			}
			checkDetails(t, "process", checks, tt.details, idle)
		})
	}
}

// The documented workflow, the same smoke case for every wire format of
// wire.All (a new format is checked by being registered): agentvcr record
// in front of a gateway (the scripted one), our agent through it live;
// the recording replayed offline by agentvcr run to the same transcript;
// then conform serves the recording back to the agent, clean and under
// every benign quirk of that format, and every case passes: the whole
// recorded catalog on agentvcr run in process (recordedInProcess), the
// replay also through agentvcr conform -cassette on the real binary.
func TestEveryFormatRecordsReplaysAndConforms(t *testing.T) {
	for _, f := range wire.All() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			const key = "sk-test-conform-record-0123456789"
			gw, stopGW := gateway.New(key, demo.Scripts(tools.ZH)...).Start()
			defer stopGW()
			dir := t.TempDir()
			if err := demo.WriteSandbox(dir); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			pr, pw := io.Pipe()
			var recErr bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- cli.Record(ctx, cli.Env{Dir: dir, Getenv: func(string) string { return "" }, Stdin: strings.NewReader(""), Stdout: pw, Stderr: &recErr},
					[]string{"-upstream", gw, "-o", "rec.yaml"})
				pw.Close()
			}()
			first, err := bufio.NewReader(pr).ReadString('\n')
			def := wire.Default()
			base, ok := strings.CutPrefix(strings.TrimSpace(first), def.BaseURLEnv+"=")
			if err != nil || !ok {
				t.Fatalf("record's first line %q: %v", first, err)
			}
			go io.Copy(io.Discard, pr)
			base = wire.BaseURL(f, strings.TrimSuffix(base, def.BasePath))
			vars := map[string]string{f.KeyEnv: key}
			code, live, stderr := cli.Capture(cli.Env{Dir: dir, Getenv: func(k string) string { return vars[k] }},
				"run", "-api", f.Name, "-base-url", base, "-model", demo.ScriptParallel)
			if code != 0 {
				t.Fatalf("run through record: exit %d: %s", code, stderr)
			}
			cancel()
			if code := <-done; code != 0 {
				t.Fatalf("record: exit %d: %s", code, recErr.String())
			}
			rec := filepath.Join(dir, "rec.yaml")
			code, replayed, stderr := cli.Capture(cli.Env{Dir: dir, Getenv: func(string) string { return "" }}, "run", "-cassette", rec)
			if code != 0 {
				t.Fatalf("replay: exit %d: %s", code, stderr)
			}
			if diff := cmp.Diff(live, replayed); diff != "" {
				t.Errorf("replayed transcript (-live +replayed):\n%s", diff)
			}
			format, err := conformpkg.FormatByName(f.Name)
			if err != nil {
				t.Fatal(err)
			}
			n := len(conformpkg.RecordedCases(format))
			summary := fmt.Sprintf("%d cases: %d SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED", n, n)
			args := ownAgent(t, "-api", f.Name)
			args[4] = demo.ScriptParallel // -model
			args[6] = dir                 // -C: the workspace it was recorded on
			if table := recordedInProcess(t, f, rec, args[2:]); !strings.Contains(table, summary) {
				t.Errorf("conform in process: want %q in\n%s", summary, table)
			}
			// The real command on a process, on the replay alone.
			summary = "1 cases: 1 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED"
			code, stdout, stderr := conform(append([]string{"-api", f.Name, "-cassette", rec, "-case", "replay"}, args...)...)
			if code != 0 || stderr != "" || !strings.Contains(stdout, summary) {
				t.Errorf("conform: exit %d, want %q\n%s\n%s", code, summary, stdout, stderr)
			}
		})
	}
}

// Our agent speaking Messages, run under conform's default -api chat: the
// run stops after the first case with one line that names the -api to use.
func TestConformAgentOfAnotherFormat(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := conform(ownAgent(t, "-api", "messages", "-idle-timeout", "2s")...)
	want := "agentvcr conform: request on another format's path: conform runs -api chat, which posts to .../v1/chat/completions, and the agent posted to /v1/messages (-api messages speaks that format)\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
	}
}

// Without -q, stderr (not a terminal here) gets a line per finished case
// while the run goes on, and stdout keeps only the table.
func TestConformProgressLines(t *testing.T) {
	t.Parallel()
	var out, errs bytes.Buffer
	env := cli.ProcessEnv()
	env.Stdout, env.Stderr = &out, &errs
	code := cli.Main(env, append([]string{"conform", "-p", "1", "-case", "clean,crlf,fault_500"}, ownAgent(t)...))
	got := regexp.MustCompile(`\([0-9.]+m?s\)`).ReplaceAllString(errs.String(), "(D)")
	want := "conform: 1/3 clean SUCCESS (D)\nconform: 2/3 fault_500 SUCCESS (D)\nconform: 3/3 crlf SUCCESS (D)\n"
	if code != 0 || got != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, got, want)
	}
	if strings.Contains(out.String(), "conform: 1/3") || !strings.Contains(out.String(), "3 cases: 3 SUCCESS") {
		t.Errorf("stdout:\n%s", out.String())
	}
}
