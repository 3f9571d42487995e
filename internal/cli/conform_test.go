package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad input to conform: one line on stderr saying what to do, exit 2, and
// no agent started.
func TestConformBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unknown := write("unknown", "clean\nindex_plus_2 # typo\n")
	spaced := write("spaced", "clean truncated\n")
	twice := write("twice", "crlf\n# a comment\ncrlf\n")
	marker := filepath.Join(dir, "started")
	agent := []string{"--", "sh", "-c", "touch " + marker}
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"no command", []string{"conform"},
			"agentvcr conform: no agent to run: give its command after --, e.g. agentvcr conform -- node agent.js\n"},
		{"an unknown case", append([]string{"conform", "-case", "clean,index_plus_2"}, agent...),
			"agentvcr conform: unknown case \"index_plus_2\": the cases are clean, index_plus_1, index_minus_1, interleaved_calls, args_one_rune, args_split_escapes, ids_dropped, id_every_piece, name_every_piece, no_index, all_index_0, finish_stop, crlf, comments, no_done, content_parts, several_choices, name_in_pieces, args_cumulative, args_repeated_at_end, bad_args, comments+no_done, comments+args_one_rune, args_split_escapes+crlf, midstream_error, truncated, finish_length, echo_signature, echo_reasoning, fault_429, fault_500, fault_stall, fault_reset (agentvcr conform -list describes them)\n"},
		{"a baseline naming no case", append([]string{"conform", "-baseline", unknown}, agent...),
			"agentvcr conform: bad baseline: " + unknown + " line 2: \"index_plus_2\" is no case: remove it, or pick one of clean, index_plus_1, index_minus_1, interleaved_calls, args_one_rune, args_split_escapes, ids_dropped, id_every_piece, name_every_piece, no_index, all_index_0, finish_stop, crlf, comments, no_done, content_parts, several_choices, name_in_pieces, args_cumulative, args_repeated_at_end, bad_args, comments+no_done, comments+args_one_rune, args_split_escapes+crlf, midstream_error, truncated, finish_length, echo_signature, echo_reasoning, fault_429, fault_500, fault_stall, fault_reset\n"},
		{"two ids on a baseline line", append([]string{"conform", "-baseline", spaced}, agent...),
			"agentvcr conform: bad baseline: " + spaced + " line 1: \"clean truncated\": write one case id per line, with an optional '# reason' after it\n"},
		{"an id listed twice", append([]string{"conform", "-baseline", twice}, agent...),
			"agentvcr conform: bad baseline: " + twice + " line 3: \"crlf\" is listed twice: remove one\n"},
		{"a missing baseline", append([]string{"conform", "-baseline", filepath.Join(dir, "none")}, agent...),
			"agentvcr conform: bad baseline: open " + filepath.Join(dir, "none") + ": no such file or directory: give -baseline a file of case ids, one per line (an empty file is a valid baseline)\n"},
		{"a -call that is not JSON", append([]string{"conform", "-call", "read_file={path}"}, agent...),
			"agentvcr conform: -call read_file: the arguments are not a JSON object: invalid character 'p' looking for beginning of object key string\n"},
		{"-ignore without a cassette", append([]string{"conform", "-ignore", "messages.0.content"}, agent...),
			"agentvcr conform: -ignore compares requests with a recording: give it with -cassette FILE\n"},
		{"a cassette that does not exist", append([]string{"conform", "-cassette", filepath.Join(dir, "none.yaml")}, agent...),
			"agentvcr conform: cannot replay the cassette: cassette " + filepath.Join(dir, "none.yaml") + ": requested cassette not found: no such file: record the agent into it first: agentvcr record -upstream URL -o " + filepath.Join(dir, "none.yaml") + "\n"},
		{"an unknown -api", append([]string{"conform", "-api", "completions"}, agent...),
			"agentvcr conform: -api: unknown wire format \"completions\": want chat, messages, responses, gemini, bedrock, vertex-anthropic, converse\n"},
		{"a chat case under -api messages", append([]string{"conform", "-api", "messages", "-case", "clean"}, agent...),
			"agentvcr conform: unknown case \"clean\": the cases are messages_clean, messages_ping_before_delta, messages_start_input_copied, messages_start_input_only, messages_input_null, messages_no_empty_partial, messages_args_one_rune, messages_args_split_escapes, messages_index_from_1, messages_text_after_tool_use, messages_repeated_message_start, messages_end_turn_with_calls, messages_usage_final_delta, messages_unknown_events, messages_no_event_lines, messages_crlf, messages_no_message_stop, messages_all_index_0, messages_start_repeats_index, messages_prefilled_start, messages_stop_twice, messages_overloaded_midstream, messages_cut_before_stop, messages_max_tokens_cut, messages_echo_thinking, messages_fault_429, messages_fault_500, messages_fault_stall, messages_fault_reset (agentvcr conform -list describes them)\n"},
		{"a timeout of zero", append([]string{"conform", "-timeout", "0s"}, agent...),
			"agentvcr conform: -timeout 0s: give a positive duration such as 30s\n"},
		{"a retry timeout of zero", append([]string{"conform", "-retry-timeout", "0s"}, agent...),
			"agentvcr conform: -retry-timeout 0s: give a positive duration such as 5m\n"},
		{"shard 0 of 3", append([]string{"conform", "-shard", "0/3"}, agent...),
			"agentvcr conform: -shard: bad shard 0/3: shards count from 1 to N: give 1/3 to 3/3\n"},
		{"shard 4 of 3", append([]string{"conform", "-shard", "4/3"}, agent...),
			"agentvcr conform: -shard: bad shard 4/3: shards count from 1 to N: give 1/3 to 3/3\n"},
		{"a shard that is no number", append([]string{"conform", "-shard", "x"}, agent...),
			"agentvcr conform: -shard: bad shard \"x\": give I/N, e.g. 1/3 for the first of three shards\n"},
		{"zero shards", append([]string{"conform", "-shard", "1/0"}, agent...),
			"agentvcr conform: -shard: bad shard 1/0: give at least 1 shard (N counts them)\n"},
		{"more shards than cases", append([]string{"conform", "-case", "clean,crlf,truncated", "-shard", "3/3"}, agent...),
			"agentvcr conform: -shard: bad shard 3/3: 2 cases besides the probe fill at most 2 shards\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := Capture(Env{Dir: dir}, tt.args...)
		if code != 2 || stderr != tt.want || stdout != "" {
			t.Errorf("%s: exit %d\nstderr %q\nwant   %q\nstdout %q", tt.reason, code, stderr, tt.want, stdout)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("an agent was started")
	}
}

func TestConformList(t *testing.T) {
	code, stdout, stderr := Capture(Env{Dir: t.TempDir()}, "conform", "-list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 33 || !strings.HasPrefix(lines[1], "index_plus_1            quirk   tool_calls[].index counts from 1") ||
		!strings.HasPrefix(lines[21], "comments+no_done        quirk   comment lines among the events and no [DONE]") {
		t.Errorf("-list printed %d lines:\n%s", len(lines), stdout)
	}
	code, stdout, stderr = Capture(Env{Dir: t.TempDir()}, "conform", "-list", "-api", "messages")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines = strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 29 || lines[0] != "messages_clean                  quirk   the clean turn, as Anthropic streams it" ||
		!strings.HasPrefix(lines[24], "messages_echo_thinking          echo    a thinking block with its signature before the turn") ||
		!strings.HasPrefix(lines[28], "messages_fault_reset            fault   the first stream's connection is closed") {
		t.Errorf("-list -api messages printed %d lines:\n%s", len(lines), stdout)
	}
	code, stdout, stderr = Capture(Env{Dir: t.TempDir()}, "conform", "-list", "-api", "responses")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines = strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 36 || lines[0] != "responses_clean                  quirk   the clean turn, as OpenAI streams it" ||
		!strings.HasPrefix(lines[23], "responses_echo_reasoning         echo    a reasoning item before the turn's items") ||
		!strings.HasPrefix(lines[27], "responses_fault_reset            fault   the first stream's connection is closed") ||
		lines[35] != "responses_ws_refused             websocket every WebSocket upgrade refused with 426 Upgrade Required: the agent must post over HTTP and finish" {
		t.Errorf("-list -api responses printed %d lines:\n%s", len(lines), stdout)
	}
	code, stdout, stderr = Capture(Env{Dir: t.TempDir()}, "conform", "-list", "-cassette", "x.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stdout, "\n"); n != 23 || !strings.HasPrefix(stdout, "replay ") {
		t.Errorf("-list -cassette printed %d lines:\n%s", n, stdout)
	}
}
