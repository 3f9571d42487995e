package conformtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/harness/conform/conformtest"
	"github.com/agentvcr/agentvcr/internal/racetest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"
)

// Our own agent (agent.Loop with the tools package), in process, passes
// every case of every format's catalog, with the baselines CI uses for it
// (.ci/baselines/agentvcr*.txt).
func TestOwnAgentEveryFormat(t *testing.T) {
	for _, f := range wire.All() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			conformtest.Run(t, conformtest.Options{Agent: ownAgent(t, f), API: f.Name, Baseline: baselineOf(f),
				Parallel: 8, Timeout: 20 * time.Second, StallTimeout: 20 * time.Second})
		})
	}
}

// baselineOf is CI's baseline for our agent in format f.
func baselineOf(f *agent.Format) string {
	if f == wire.Default() {
		return "../../../.ci/baselines/agentvcr.txt"
	}
	return "../../../.ci/baselines/agentvcr-" + f.Name + ".txt"
}

// ownAgent is agentvcr's agent as `agentvcr run -api F -model conform`
// runs it live, on a sandbox of the demo's files: retries as the command
// does, 1 ms apart when the answer names no Retry-After, and an idle
// timeout of 0.5 s (times racetest.Slow) so that the stall case ends soon:
// conform writes each answer at once, so only a stall is silent that long.
func ownAgent(t *testing.T, f *agent.Format) conform.AgentFunc {
	ws := t.TempDir()
	if err := demo.WriteSandbox(ws); err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, env []string, stdout, stderr io.Writer) int {
		vars := map[string]string{}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		workspace, err := tools.NewWorkspace(ws)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		transport := &agent.LiveTransport{HeaderTimeout: 20 * time.Second, IdleTimeout: racetest.Slow * 500 * time.Millisecond, Retries: agent.DefaultRetries, RetryBackoff: time.Millisecond}
		loop := agent.Loop{Tools: tools.Default(workspace, tools.EN), Client: &agent.Client{BaseURL: vars[f.BaseURLEnv], APIKey: vars[f.KeyEnv],
			Model: "conform", Format: f, HTTPClient: &http.Client{Transport: transport}}}
		msgs, err := loop.Run(ctx, []agent.Message{{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.EN)}, {Role: agent.RoleUser, Content: demo.Prompt(tools.EN)}})
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintln(stdout, msgs[len(msgs)-1].Content)
		return 0
	}
}

// takesCutStreams is our agent with one bug: a stream cut short is taken
// for a finished turn (its merge's ErrTruncatedStream is dropped), so the
// complete calls before the cut are run and sent on, and the cut call with
// its arguments reset to {}, which misleads the model about what it sent
// (the partial arguments answered with our tool's "not valid JSON" would be
// an honest refusal).
func takesCutStreams(t *testing.T) conform.AgentFunc {
	f := *wire.Default()
	merge := f.Merge
	f.Merge = func(r io.Reader) (*agent.Turn, error) {
		turn, err := merge(r)
		if errors.Is(err, agent.ErrTruncatedStream) {
			err = nil
			for i := range turn.ToolCalls { // the cut call's arguments reset, as if the model had sent none
				if !json.Valid([]byte(turn.ToolCalls[i].Function.Arguments)) {
					turn.ToolCalls[i].Function.Arguments = "{}"
				}
			}
		}
		return turn, err
	}
	return ownAgent(t, &f)
}

// Case files run through CaseDirs as conform -cases runs them: our agent
// passes a benign composition (chat) and a broken one (messages), each
// case a subtest under its file's id.
func TestOwnAgentCaseFiles(t *testing.T) {
	for _, tt := range []struct{ api, clean, id string }{{"chat", "clean", "test_runes_no_ids"}, {"messages", "messages_clean", "test_ping_cut"}} {
		t.Run(tt.api, func(t *testing.T) {
			f, err := wire.ByName(tt.api)
			if err != nil {
				t.Fatal(err)
			}
			conformtest.Run(t, conformtest.Options{Agent: ownAgent(t, f), API: tt.api, CaseDirs: []string{"testdata/cases"},
				Cases: []string{tt.clean, tt.id}, Parallel: 2, Timeout: 20 * time.Second})
		})
	}
}
