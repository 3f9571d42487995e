package chat

import (
	"context"
	"errors"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/google/go-cmp/cmp"
)

// The loop under a turn the output limit cut: no call runs (not even the
// whole one before the cut), nothing goes into the history, and the error
// names the limit.
func TestLoopOutputLimitRunsNothing(t *testing.T) {
	cut := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"echo","arguments":"{\"text\":\"whole\"}"}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"echo","arguments":"{\"te"}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}` + "\n\ndata: [DONE]\n\n"
	g := streamtest.NewGateway(t, streamtest.Reply{Body: cut})
	ran := 0
	loop := agent.Loop{Client: g.Client(Format), Tools: streamtest.Tools(t, tools.EN, func(context.Context) { ran++ })}
	start := streamtest.Start()
	msgs, err := loop.Run(context.Background(), start)
	if !errors.Is(err, agent.ErrOutputLimit) {
		t.Fatalf("err = %v, want ErrOutputLimit", err)
	}
	if want := `agent: request 1: the output token limit (finish_reason "length") cut tool call "echo" (b) before its arguments were complete; it is not run`; err.Error() != want {
		t.Errorf("err = %q\nwant %q", err, want)
	}
	if ran != 0 {
		t.Errorf("%d calls ran, want none", ran)
	}
	if diff := cmp.Diff(start, msgs); diff != "" {
		t.Errorf("history (-before +after):\n%s", diff)
	}
	if n := len(g.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
