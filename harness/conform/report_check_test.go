package conform

import (
	"encoding/json"
	"errors"
	"testing"
)

// checkJSON is a JSON report of one check: a good one, with the fields
// in set (a nil value deletes the field).
func checkJSON(t *testing.T, set map[string]any) []byte {
	t.Helper()
	c := map[string]any{"id": "index_plus_1", "tier": "quirk", "status": "FAILURE", "description": "d", "source": "s",
		"details": "x", "exit_code": 0, "requests": 2, "duration_ms": 5, "api": "chat", "agent": "node agent.js", "shard": "2/3"}
	for k, v := range set {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	data, err := json.Marshal([]any{c})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Every field report merge and report md read is checked: a bad one is
// refused in one line that names the file, the check and the field.
func TestReadReportRefusesFieldsOutOfRange(t *testing.T) {
	for _, tt := range []struct {
		reason string
		set    map[string]any
		want   string
	}{
		{"a negative request count (it panicked report merge)", map[string]any{"requests": -1},
			`"requests" is -1: a count is 0 or more`},
		{"vacuous on a FAILURE", map[string]any{"vacuous": true},
			`"vacuous" is true on a FAILURE case index_plus_1: only a SKIPPED case of a quirk that edits argument text alone is vacuous`},
		{"vacuous on a quirk that does not edit arguments alone", map[string]any{"vacuous": true, "status": "SKIPPED"},
			`"vacuous" is true on a SKIPPED case index_plus_1: only a SKIPPED case of a quirk that edits argument text alone is vacuous`},
		{"a negative duration", map[string]any{"duration_ms": -5},
			`"duration_ms" is -5: a duration is 0 or more`},
		{"an exit code below -1", map[string]any{"exit_code": -2},
			`"exit_code" is -2: want -1 (killed or never started) or an exit status`},
		{"a status of no verdict", map[string]any{"status": "<img src=x>"},
			`"status" is "<img src=x>": want SUCCESS, FAILURE, WARNING or SKIPPED`},
		{"a status in lower case", map[string]any{"status": "success"},
			`"status" is "success": want SUCCESS, FAILURE, WARNING or SKIPPED`},
		{"no api", map[string]any{"api": nil},
			`"api" is "": want one of chat, messages, responses, gemini, bedrock, vertex-anthropic, converse`},
		{"an api of no format", map[string]any{"api": "chat\n<h1>"},
			`"api" is "chat\n<h1>": want one of chat, messages, responses, gemini, bedrock, vertex-anthropic, converse`},
		{"an id of no catalog", map[string]any{"id": "clean\n| x | y |"},
			`"id" is "clean\n| x | y |", which this agentvcr's -api chat catalog does not have: use the agentvcr that ran conform`},
		{"an id of another format's catalog", map[string]any{"id": "all_index_0", "api": "gemini"},
			`"id" is "all_index_0", which this agentvcr's -api gemini catalog does not have: use the agentvcr that ran conform`},
		{"a case of the catalog, not of recorded mode's", map[string]any{"cassette": "c.yaml"},
			`"tier" is "quirk", the case index_plus_1 is of the tier "recorded"`},
		{"another tier", map[string]any{"tier": "fault"},
			`"tier" is "fault", the case index_plus_1 is of the tier "quirk"`},
		{"a provider on a case of none", map[string]any{"other_provider": "gemini"},
			`"other_provider" is "gemini": the case index_plus_1 is of no provider`},
		{"a shard past N", map[string]any{"shard": "4/3"},
			`"shard" is "4/3": want I/N with 1 <= I <= N, as conform -shard writes it`},
		{"shard 0", map[string]any{"shard": "0/3"},
			`"shard" is "0/3": want I/N with 1 <= I <= N, as conform -shard writes it`},
		{"a shard conform never writes", map[string]any{"shard": "+1/03"},
			`"shard" is "+1/03": want I/N with 1 <= I <= N, as conform -shard writes it`},
		{"a shard with a heading after it", map[string]any{"shard": "1/3\n\n<h1>x</h1>"},
			`"shard" is "1/3\n\n<h1>x</h1>": want I/N with 1 <= I <= N, as conform -shard writes it`},
		{"a newline in the agent", map[string]any{"agent": "node\n# heading"},
			`"agent" is "node\n# heading": a control character (a newline among them) is no part of it`},
		{"an escape in the cassette", map[string]any{"cassette": "\x1b[2J", "tier": "recorded"},
			`"cassette" is "\x1b[2J": a control character (a newline among them) is no part of it`},
		{"a newline in the description", map[string]any{"description": "a\nb"},
			`"description" is "a\nb": a control character (a newline among them) is no part of it`},
		{"a tab in the source", map[string]any{"source": "a\tb"},
			`"source" is "a\tb": a control character (a newline among them) is no part of it`},
	} {
		_, err := ReadReport("r.json", checkJSON(t, tt.set))
		if want := "bad report r.json: check 1: " + tt.want; !errors.Is(err, ErrBadReport) || err == nil || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", tt.reason, err, want)
		}
	}
}

// A report is one JSON array of at least one check, and nothing after it.
func TestReadReportRefusesNoReport(t *testing.T) {
	for _, tt := range []struct{ reason, data, want string }{
		{"an empty array", "[]\n", "bad report r.json: no check in it: conform -json writes at least one"},
		{"null", "null", "bad report r.json: no check in it: conform -json writes at least one"},
		{"a second array", string(checkJSON(t, nil)) + "\n[]", "bad report r.json: more follows the JSON array: give the file agentvcr conform -json wrote"},
		{"a stray bracket", string(checkJSON(t, nil)) + "]", "bad report r.json: more follows the JSON array: give the file agentvcr conform -json wrote"},
	} {
		_, err := ReadReport("r.json", []byte(tt.data))
		if !errors.Is(err, ErrBadReport) || err.Error() != tt.want {
			t.Errorf("%s: %v\nwant %s", tt.reason, err, tt.want)
		}
	}
}

// What conform -json writes is read back: the good check, a recorded
// case, a killed agent, a case of another provider.
func TestReadReportTakesWhatConformWrites(t *testing.T) {
	for _, set := range []map[string]any{
		nil,
		{"shard": nil},
		{"id": "replay", "tier": "recorded", "cassette": "c.yaml"},
		{"exit_code": -1, "timed_out": true, "status": "SKIPPED"},
		{"id": "echo_reasoning", "tier": "echo", "other_provider": "deepseek", "expected_failure": true},
	} {
		if _, err := ReadReport("r.json", checkJSON(t, set)); err != nil {
			t.Errorf("%v: %v", set, err)
		}
	}
}

// An agent's command line with a newline or a tab is named on one line,
// which the readers take.
func TestAgentNameIsOneLine(t *testing.T) {
	got := AgentName([]string{"sh", "-c", "echo a\n\techo b\x1b"})
	if want := `sh -c echo a\n\techo b\x1b`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := ReadReport("r.json", checkJSON(t, map[string]any{"agent": got})); err != nil {
		t.Error(err)
	}
}
