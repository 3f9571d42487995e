package cli

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// TestProxyRunsOurAgentThroughAQuirk: agentvcr run goes through agentvcr
// proxy in front of the scripted gateway (no live provider is reachable
// from here) under a benign quirk of its format and prints what it prints
// without the proxy; -o records what it received (the quirked answers, no
// key), and that recording replays to the same output.
func TestProxyRunsOurAgentThroughAQuirk(t *testing.T) {
	const key = "sk-test-chaos-proxy-0123456789abcdef"
	gw, stopGW := gateway.New(key, demo.Scripts(tools.ZH)...).Start()
	defer stopGW()
	for _, tt := range []struct{ api, upstream, quirk, keyVar string }{
		{"chat", gw, "args_split_escapes", "OPENAI_API_KEY"},
		{"chat", gw, "ids_dropped+args_split_escapes+comments+crlf", "OPENAI_API_KEY"}, // a composition
		{"messages", gw, "messages_args_split_escapes", "ANTHROPIC_API_KEY"},
		{"gemini", strings.TrimSuffix(gw, "/v1"), "gemini_calls_across_events", "GEMINI_API_KEY"},
	} {
		t.Run(tt.api, func(t *testing.T) {
			dir := t.TempDir()
			if err := demo.WriteSandbox(dir); err != nil {
				t.Fatal(err)
			}
			vars := map[string]string{tt.keyVar: key}
			direct := gw
			if tt.api != "chat" {
				direct = strings.TrimSuffix(gw, "/v1")
			}
			code, want, stderr := runIn(dir, vars, "run", "-api", tt.api, "-base-url", direct, "-model", demo.ScriptDemo)
			if code != 0 {
				t.Fatalf("run against the gateway: exit %d: %s", code, stderr)
			}
			base, stop := startCommand(t, dir, nil, Proxy, "-upstream", tt.upstream, "-api", tt.api, "-quirk", tt.quirk, "-o", "rec.yaml")
			if tt.api != "chat" {
				base = strings.TrimSuffix(base, "/v1")
			}
			code, got, stderr := runIn(dir, vars, "run", "-api", tt.api, "-base-url", base, "-model", demo.ScriptDemo)
			if code != 0 {
				t.Fatalf("run through the proxy: exit %d: %s", code, stderr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("through the proxy (-direct +proxied):\n%s", diff)
			}
			code, stderr = stop()
			wantErr := "agentvcr proxy: forwarding to " + tt.upstream + "; breaking every streamed answer with quirk " + tt.quirk + " (seed 1; holds "
			if code != 0 || !strings.HasPrefix(stderr, wantErr) || !strings.HasSuffix(stderr, "agentvcr proxy: saved 4 interactions to rec.yaml\n") {
				t.Fatalf("proxy: exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(filepath.Join(dir, "rec.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(data, []byte(key)) {
				t.Errorf("the recording holds the key")
			}
			code, replayed, stderr := runIn(dir, nil, "run", "-cassette", "rec.yaml")
			if code != 0 {
				t.Fatalf("replay of what the agent received: exit %d: %s", code, stderr)
			}
			if diff := cmp.Diff(want, replayed); diff != "" {
				t.Errorf("replay (-direct +replayed):\n%s", diff)
			}
		})
	}
}

// Bad flags are usage errors (exit 2) that say what to pass; CI=true
// refuses (exit 1); nothing listens in either case.
func TestProxyRefusesBadFlags(t *testing.T) {
	chat := "index_plus_1, index_minus_1, interleaved_calls, args_one_rune, args_split_escapes, ids_dropped, id_every_piece, name_every_piece, no_index, all_index_0, finish_stop, crlf, comments, no_done, content_parts, several_choices, name_in_pieces, args_cumulative, args_repeated_at_end, bad_args"
	gemini := "crlf, comments, gemini_call_ids_dropped, gemini_calls_across_events, gemini_args_split_name_first, gemini_empty_candidate, gemini_finish_alone, gemini_args_streamed, gemini_args_streamed_one_rune, gemini_args_streamed_split_escapes, gemini_args_streamed_out_of_order, gemini_args_streamed_ids_repeated, gemini_signature_first_only, gemini_signature_empty_text, gemini_chunks_after_finish, gemini_second_candidate, gemini_lf, gemini_error_midstream, gemini_malformed_function_call, gemini_args_streamed_cut, gemini_error_line, gemini_malformed_after_call, gemini_prompt_blocked, gemini_cut_before_finish"
	up := []string{"-upstream", "http://127.0.0.1:1/v1"}
	for _, tt := range []struct {
		args []string
		ci   bool
		code int
		want string
	}{
		{args: append(up, "-quirk", "index_from_1"), code: 2, want: `unknown -quirk "index_from_1": for -api chat pick one of ` + chat},
		{args: append(up, "-api", "gemini", "-quirk", "messages_index_from_1"), code: 2,
			want: "-quirk messages_index_from_1 breaks messages streams, not -api gemini's: for -api gemini pick one of " + gemini},
		{args: append(up, "-quirk", "crlf+nope"), code: 2, want: `-quirk crlf+nope: unknown quirk "nope": for -api chat pick parts among ` + chat},
		{args: append(up, "-quirk", "crlf+comments"), code: 2,
			want: "-quirk crlf+comments: cannot compose crlf with comments: comments writes the line ends again, undoing crlf (put crlf after it)"},
		{args: append(up, "-api", "gemini", "-quirk", "comments+messages_crlf"), code: 2,
			want: "-quirk comments+messages_crlf breaks messages streams, not -api gemini's: for -api gemini pick one of " + gemini},
		{args: append(up, "-quirk", "crlf", "-fault", "boom"), code: 2,
			want: `-fault: bad fault "boom": unknown kind "boom" (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)`},
		{args: append(up, "-fault", "reset:2@0"), code: 2,
			want: `-fault: bad fault "reset:2@0": TURN must be 1 or more (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)`},
		{args: append(up, "-fault", "stall@two"), code: 2,
			want: `-fault: bad fault "stall@two": TURN must be 1 or more (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)`},
		{args: append(up, "-api", "grpc", "-quirk", "crlf"), code: 2, want: `-api: unknown api "grpc" (want chat, messages, responses, gemini, bedrock, vertex-anthropic, converse)`},
		{args: []string{"-quirk", "crlf"}, code: 2, want: "no upstream: pass -upstream URL (the provider's base URL, e.g. https://api.openai.com/v1)"},
		{args: up, code: 2, want: "nothing to break: pass -quirk Q or -fault KIND (agentvcr record is the plain proxy)"},
		{args: append(up, "-quirk", "crlf", "extra"), code: 2, want: `unexpected argument "extra"`},
		{args: append(up, "-quirk", "crlf"), ci: true, code: 1, want: "the chaos proxy is refused when CI=true: it talks to a live provider; run it on your machine"},
	} {
		vars := map[string]string{}
		if tt.ci {
			vars["CI"] = "true"
		}
		code, stdout, stderr := runIn(t.TempDir(), vars, append([]string{"proxy"}, tt.args...)...)
		if code != tt.code || stdout != "" || stderr != "agentvcr proxy: "+tt.want+"\n" {
			t.Errorf("proxy %s: exit %d, stdout %q, stderr:\n%s\nwant exit %d and:\nagentvcr proxy: %s", strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.want)
		}
	}
}

// At exit, agentvcr proxy counts the answers it could not break as asked:
// one in br (which it cannot decode) and one cut at -max-held (an answer
// whose call arguments never end), each also named by its own line.
func TestProxySummarisesWhatItCouldNotBreak(t *testing.T) {
	const piece = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"aaaaaaaa\"}}]}}]}\n\n"
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if r.URL.Query().Has("br") {
			w.Header().Set("Content-Encoding", "br")
			io.WriteString(w, "data: [DONE]\n\n")
			return
		}
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"grep\",\"arguments\":\"\"}}]}}]}\n\n")
		for sent := 0; sent < 4<<20 && r.Context().Err() == nil; sent += len(piece) { // bounded: the test stops by itself
			io.WriteString(w, piece)
		}
	}))
	defer upstream.Close()
	base, stop := startCommand(t, t.TempDir(), nil, Proxy, "-upstream", upstream.URL+"/v1", "-quirk", "args_split_escapes", "-max-held", "64KiB")
	for _, query := range []string{"?br", ""} {
		req, _ := http.NewRequest(http.MethodPost, base+"/chat/completions"+query, strings.NewReader(`{"stream":true}`))
		req.Header.Set("Accept-Encoding", "br") // so that the client's transport leaves the body alone
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if (query == "") != errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%q: read %v", query, err)
		}
	}
	code, stderr := stop()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	want := []string{
		"agentvcr proxy: 1 streamed answer passed unbroken: the proxy cannot decode its Content-Encoding (the lines above name it)",
		"agentvcr proxy: 1 answer was cut: the quirk would have held more than -max-held 64KiB",
	}
	if code != 0 || len(lines) != 5 || !slices.Equal(lines[3:], want) {
		t.Fatalf("exit %d, stderr:\n%s\nwant 5 lines, the last two:\n%s", code, stderr, strings.Join(want, "\n"))
	}
	if !strings.HasSuffix(lines[1], `?br=: Content-Encoding "br": the proxy cannot decode this Content-Encoding, so it cannot rewrite the answer: the answer passes as it came, not broken`) ||
		!strings.HasSuffix(lines[2], ", the limit is 65536 (agentvcr proxy -max-held): the answer is cut off, as a broken stream is") {
		t.Errorf("the lines that name each answer:\n%s", strings.Join(lines[1:3], "\n"))
	}
}
