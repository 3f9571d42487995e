package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	conformpkg "github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/internal/cli"
)

// conformInProcess runs conform with opt (Cases nil: the format's whole
// catalog, or its recorded one with a Recording) against agentvcr run with
// the arguments of run (from "run" on, as ownAgent gives them), called in
// the test's process once per case with the case's variables as its
// environment, and returns the results and the table agentvcr conform
// prints.
func conformInProcess(t *testing.T, opt conformpkg.Options, run []string) ([]conformpkg.Result, string) {
	t.Helper()
	opt.Agent = func(ctx context.Context, env []string, stdout, stderr io.Writer) int {
		vars := map[string]string{"AGENTVCR_RETRY_BACKOFF": os.Getenv("AGENTVCR_RETRY_BACKOFF")}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		return cli.Main(cli.Env{Dir: ".", Getenv: cli.Vars(vars), Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr}, run)
	}
	opt.Parallel = 8
	results, err := conformpkg.Run(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	conformpkg.WriteTable(&table, results)
	return results, table.String()
}

// recordedInProcess is conformInProcess of the recorded catalog of format
// f on the cassette.
func recordedInProcess(t *testing.T, f *agent.Format, cassette string, run []string) string {
	t.Helper()
	format, err := conformpkg.FormatByName(f.Name)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := conformpkg.ReadRecording(cassette)
	if err != nil {
		t.Fatal(err)
	}
	_, table := conformInProcess(t, conformpkg.Options{Format: format, Recording: rec}, run)
	return table
}

// checkDetails compares each case's details with the one want gives for it
// (a stall's measured time written TIME, the idle timeout IDLE).
func checkDetails(t *testing.T, run string, checks []struct{ ID, Details string }, want map[string]string, idle string) {
	t.Helper()
	for _, c := range checks {
		got := measured.ReplaceAllString(c.Details, "after TIME:") // the time the agent took, as measured
		if w := strings.ReplaceAll(want[c.ID], "IDLE", idle); got != w {
			t.Errorf("%s: %s: details %q\nwant %q", run, c.ID, got, w)
		}
	}
}
