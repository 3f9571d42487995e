package conform

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

// recordGood records the good test agent's conversation with the probe: its
// requests and the probe's replies, as agentvcr record would.
func recordGood(t *testing.T) *Recording {
	t.Helper()
	clean, _ := SelectCases(Cases(), []string{"clean"})
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentGood), Cases: clean, Timeout: slow * 10 * time.Second})
	if err != nil || results[0].Status != Success {
		t.Fatalf("recording the good agent: %v %+v", err, results)
	}
	first, err := chatFormat.Read(results[0].Requests[0])
	if err != nil {
		t.Fatal(err)
	}
	conv, err := chatFormat.build(first, nil, agentFolder)

	if err != nil {
		t.Fatal(err)
	}
	return &Recording{Requests: results[0].Requests, Replies: conv.turns}
}

func TestRecordedMode(t *testing.T) {
	t.Parallel()
	rec := recordGood(t)
	tests := []struct {
		reason string
		mode   string
		ignore []string
		cases  []string // all when empty
		want   map[Status][]string
	}{
		{reason: "the agent recorded sends the same requests under every benign quirk",
			mode: agentGood, want: map[Status][]string{}},
		{reason: "the positional agent sends other requests where the index is shifted, missing or shared, where content comes as parts, where a second answer is interleaved, where the name comes in pieces and where the arguments are cumulative or repeated",
			mode: agentPositional, want: map[Status][]string{Failure: {"index_plus_1", "index_minus_1", "no_index", "all_index_0", "content_parts", "several_choices",
				"name_in_pieces", "args_cumulative", "args_repeated_at_end"}}},
		{reason: "a time in the system prompt differs from the recording, and between runs",
			mode: agentDated, cases: []string{"replay", "ids_dropped", "crlf"}, want: map[Status][]string{Failure: {"replay", "ids_dropped", "crlf"}}},
		{reason: "-ignore leaves the varying field out",
			mode: agentDated, ignore: []string{"messages.0.content"}, cases: []string{"replay", "ids_dropped", "crlf"}, want: map[Status][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			r := *rec
			r.Ignore = tt.ignore
			cases, err := SelectCases(RecordedCases(chatFormat), tt.cases)
			if err != nil {
				t.Fatal(err)
			}
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(tt.mode), Recording: &r, Cases: cases, Parallel: 8 / slow, Timeout: slow * 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, statuses(results)); diff != "" {
				t.Errorf("statuses (-want +got):\n%s\n%s", diff, table(results))
			}
		})
	}
}

func TestCanonicalComparesIDsByPosition(t *testing.T) {
	tests := []struct {
		reason string
		a, b   string
		ignore []string
		equal  bool
		format Format
	}{
		{"ids made up differently, answered in the same order", `{"messages":[{"role":"assistant","tool_calls":[{"id":"a"},{"id":"b"}]},{"role":"tool","tool_call_id":"a"},{"role":"tool","tool_call_id":"b"}]}`,
			`{"messages":[{"role":"assistant","tool_calls":[{"id":"x"},{"id":"y"}]},{"role":"tool","tool_call_id":"x"},{"role":"tool","tool_call_id":"y"}]}`, nil, true, chatFormat},
		{"the same id made up in two turns", `{"messages":[{"role":"assistant","tool_calls":[{"id":"c0"}]},{"role":"tool","tool_call_id":"c0"},{"role":"assistant","tool_calls":[{"id":"c0"}]},{"role":"tool","tool_call_id":"c0"}]}`,
			`{"messages":[{"role":"assistant","tool_calls":[{"id":"p"}]},{"role":"tool","tool_call_id":"p"},{"role":"assistant","tool_calls":[{"id":"q"}]},{"role":"tool","tool_call_id":"q"}]}`, nil, true, chatFormat},
		{"answers swapped", `{"messages":[{"role":"assistant","tool_calls":[{"id":"a"},{"id":"b"}]},{"role":"tool","tool_call_id":"a"},{"role":"tool","tool_call_id":"b"}]}`,
			`{"messages":[{"role":"assistant","tool_calls":[{"id":"x"},{"id":"y"}]},{"role":"tool","tool_call_id":"y"},{"role":"tool","tool_call_id":"x"}]}`, nil, false, chatFormat},
		{"an answer to no call", `{"messages":[{"role":"tool","tool_call_id":"a"}]}`, `{"messages":[{"role":"tool","tool_call_id":"b"}]}`, nil, false, chatFormat},
		{"ignored members, by index and by *", `{"messages":[{"role":"system","content":"t1"},{"role":"user","content":"u","name":"1"}],"user":"a"}`,
			`{"messages":[{"role":"system","content":"t2"},{"role":"user","content":"u","name":"2"}],"user":"b"}`,
			[]string{"messages.0.content", "messages.*.name", "user"}, true, chatFormat},
		{"numbers as written", `{"temperature":1.0}`, `{"temperature":1}`, nil, false, chatFormat},
		{"Messages: tool_use ids made up differently, answered in the same order",
			`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a"},{"type":"tool_use","id":"b"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"},{"type":"tool_result","tool_use_id":"b"}]}]}`,
			`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"x"},{"type":"tool_use","id":"y"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"x"},{"type":"tool_result","tool_use_id":"y"}]}]}`,
			nil, true, messagesFormat},
		{"Messages: tool_results swapped",
			`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a"},{"type":"tool_use","id":"b"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"},{"type":"tool_result","tool_use_id":"b"}]}]}`,
			`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"x"},{"type":"tool_use","id":"y"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"y"},{"type":"tool_result","tool_use_id":"x"}]}]}`,
			nil, false, messagesFormat},
		{"Responses: call_ids made up differently, item ids the stream chose",
			`{"input":[{"type":"function_call","id":"fc_1","call_id":"a"},{"type":"function_call","id":"fc_2","call_id":"b"},{"type":"function_call_output","call_id":"a"},{"type":"function_call_output","call_id":"b"}]}`,
			`{"input":[{"type":"function_call","id":"fc_9","call_id":"x"},{"type":"function_call","id":"fc_8","call_id":"y"},{"type":"function_call_output","call_id":"x"},{"type":"function_call_output","call_id":"y"}]}`,
			nil, true, responsesFormat},
		{"Responses: outputs swapped",
			`{"input":[{"type":"function_call","call_id":"a"},{"type":"function_call","call_id":"b"},{"type":"function_call_output","call_id":"a"},{"type":"function_call_output","call_id":"b"}]}`,
			`{"input":[{"type":"function_call","call_id":"x"},{"type":"function_call","call_id":"y"},{"type":"function_call_output","call_id":"y"},{"type":"function_call_output","call_id":"x"}]}`,
			nil, false, responsesFormat},
		{"Responses: an item id sent in one and not the other",
			`{"input":[{"type":"function_call","call_id":"a"},{"type":"function_call_output","call_id":"a"}]}`,
			`{"input":[{"type":"function_call","id":"fc_1","call_id":"a"},{"type":"function_call_output","call_id":"a"}]}`,
			nil, false, responsesFormat},
	}
	for _, tt := range tests {
		f := tt.format
		a, err := canonical(f, []byte(tt.a), tt.ignore)
		if err != nil {
			t.Fatal(err)
		}
		b, err := canonical(f, []byte(tt.b), tt.ignore)
		if err != nil {
			t.Fatal(err)
		}
		if got := cmp.Equal(a, b); got != tt.equal {
			t.Errorf("%s: equal = %v, want %v\n%s", tt.reason, got, tt.equal, cmp.Diff(a, b))
		}
	}
}

func TestReadRecordingSaysWhatToDo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.yaml")
	_, err := ReadRecording(path)
	want := "cannot replay the cassette: cassette " + path + ": requested cassette not found: no such file: record the agent into it first: agentvcr record -upstream URL -o " + path
	if !errors.Is(err, ErrBadCassette) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}

	// A small file whose interactions alias one body is bounded by its
	// expanded size, as every other cassette load is (here 1 MiB).
	t.Setenv(cassette.MaxBytesEnv, "1")
	bomb := filepath.Join(t.TempDir(), "bomb.yaml")
	text := "---\nversion: 1\ninteractions:\n"
	for i := range 8 {
		body := "*big"
		if i == 0 {
			body = "&big " + strings.Repeat("x", 256<<10)
		}
		text += "    - request:\n        body: '{}'\n        url: http://x/v1/chat/completions\n        method: POST\n      response:\n        body: " + body + "\n        status: 200 OK\n        code: 200\n"
	}
	if err := os.WriteFile(bomb, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadRecording(bomb)
	if !errors.Is(err, ErrBadCassette) || !errors.Is(err, cassette.ErrBadCassette) || !strings.Contains(err.Error(), "expand to more than the limit of 1 MiB") {
		t.Errorf("alias bomb: err = %v, want the expanded-size bound of 1 MiB", err)
	}
	t.Setenv(cassette.MaxBytesEnv, "")
	rec, err := ReadRecording("../../cassettes/parallel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Requests) != 3 || len(rec.Replies) != 3 {
		t.Errorf("parallel.yaml: %d requests, %d replies; want 3 and 3", len(rec.Requests), len(rec.Replies))
	}
}
