package quirk

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/internal/golden"
)

// update rewrites golden files; it is the package's one -update flag.

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkGolden compares got with testdata/name, rewriting it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func TestQuirkGoldens(t *testing.T) {
	clean := readFixture(t, "clean.sse")
	for _, q := range chatQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			got, err := q.Apply(clean, 1)
			if err != nil {
				t.Fatal(err)
			}
			again, err := q.Apply(clean, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, again) {
				t.Error("two runs with the same seed gave different bytes")
			}
			checkGolden(t, ""+q.Name+".sse.golden", got)
		})
	}
}

func TestQuirkNamesAreUniqueAndFound(t *testing.T) {
	seen := map[string]bool{}
	for _, q := range All() {
		if seen[q.Name] {
			t.Errorf("duplicate quirk %q", q.Name)
		}
		seen[q.Name] = true
		got, ok := ByName(q.Name)
		if !ok || got.Name != q.Name {
			t.Errorf("ByName(%q) = %q, %v", q.Name, got.Name, ok)
		}
		if q.Doc == "" {
			t.Errorf("quirk %q has no Doc", q.Name)
		}
	}
	if _, ok := ByName("nope"); ok {
		t.Error(`ByName("nope") found a quirk`)
	}
}

// TestQuirkSemantics merges every transformed stream with the reference
// accumulator: benign quirks give the clean turn (ids synthesized where they
// were dropped), bad_args gives invalid arguments for the first call only.
func TestQuirkSemantics(t *testing.T) {
	clean := readFixture(t, "clean.sse")
	base, err := refMerge(clean)
	if err != nil {
		t.Fatal(err)
	}
	wantBase := refTurn{Text: "先看看代码。", FinishReason: "tool_calls", Done: true, Calls: []refCall{
		{ID: "call_A1b2C3d4E5f6G7h8I9j0K1l2", Name: "grep", Arguments: `{"pattern":"func \"(\\w+)\"","path":"src"}`},
		{ID: "call_M3n4O5p6Q7r8S9t0U1v2W3x4", Name: "read_file", Arguments: `{"path":"caf\u00e9 笔记.md"}`},
	}}
	if diff := cmp.Diff(wantBase, base); diff != "" {
		t.Fatalf("clean fixture merge (-want +got):\n%s", diff)
	}
	for _, q := range chatQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			body, err := q.Apply(clean, 7)
			if err != nil {
				t.Fatal(err)
			}
			got, err := refMerge(body)
			if err != nil {
				t.Fatal(err)
			}
			want := base
			want.Calls = append([]refCall(nil), base.Calls...)
			switch q.Name {
			case "ids_dropped":
				want.Calls[0].ID, want.Calls[1].ID = "call_0_0", "call_1_1"
			case "finish_stop":
				want.FinishReason = "stop"
			case "no_done":
				want.Done = false
			case "bad_args":
				want.Calls[0].Arguments = `{"pattern":"func \"(\\w+)\"","path":"src"`
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("merged turn (-want +got):\n%s", diff)
			}
			for i, c := range got.Calls {
				valid := json.Valid([]byte(c.Arguments))
				if wantValid := q.Benign || i > 0; valid != wantValid {
					t.Errorf("call %d arguments valid = %v, want %v", i+1, valid, wantValid)
				}
			}
			if q.DropsIDs != (q.Name == "ids_dropped") {
				t.Errorf("DropsIDs = %v", q.DropsIDs)
			}
		})
	}
}

// TestQuirkShapes checks the property each transform exists for, on top of
// the goldens, so a golden rewritten by mistake still fails here.
func TestQuirkShapes(t *testing.T) {
	clean := readFixture(t, "clean.sse")
	pieces := func(t *testing.T, body []byte) []*jsonObject {
		s, err := parseQuirkStream(body)
		if err != nil {
			t.Fatal(err)
		}
		var out []*jsonObject
		for _, it := range s.items {
			if tc := it.toolCall(); tc != nil {
				out = append(out, tc)
			}
		}
		return out
	}
	apply := func(t *testing.T, name string) []byte {
		q, _ := ByName(name)
		b, err := q.Apply(clean, 1)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		quirk, reason string
		check         func(t *testing.T, body []byte, tcs []*jsonObject) string
	}{
		{"index_plus_1", "indexes are 1 then 2", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			return indexes(tcs)
		}},
		{"index_minus_1", "indexes are -1 then 0", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			return indexes(tcs)
		}},
		{"interleaved_calls", "pieces of the two calls alternate", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			return indexes(tcs)
		}},
		{"all_index_0", "every piece at index 0", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			return indexes(tcs)
		}},
		{"no_index", "no piece has an index", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			return indexes(tcs)
		}},
		{"args_one_rune", "every argument piece after the head is one rune", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			n := 0
			for _, tc := range tcs {
				if a := tc.object("function").str("arguments"); len([]rune(a)) > 1 {
					n++
				}
			}
			return strings.Repeat("x", n)
		}},
		{"args_split_escapes", "pieces end right after a backslash and inside \\uXXXX", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			var args []string
			for _, tc := range tcs {
				args = append(args, tc.object("function").str("arguments"))
			}
			return strings.Join(args, "|")
		}},
		{"id_every_piece", "every piece carries its call's id", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			var ids []string
			for _, tc := range tcs {
				ids = append(ids, tc.str("id")[:6])
			}
			return strings.Join(ids, " ")
		}},
		{"name_every_piece", "every piece carries its call's name", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			var names []string
			for _, tc := range tcs {
				names = append(names, tc.object("function").str("name"))
			}
			return strings.Join(names, " ")
		}},
		{"ids_dropped", "no id key on the first call, empty id on the second", func(t *testing.T, _ []byte, tcs []*jsonObject) string {
			var ids []string
			for _, tc := range tcs {
				v, ok := tc.get("id")
				switch {
				case !ok:
					ids = append(ids, "-")
				default:
					ids = append(ids, `"`+v.(string)+`"`)
				}
			}
			return strings.Join(ids, " ")
		}},
		{"crlf", "every line ends in CRLF", func(t *testing.T, body []byte, _ []*jsonObject) string {
			return strings.Join([]string{
				"lf=" + itoa(bytes.Count(body, []byte("\n"))),
				"crlf=" + itoa(bytes.Count(body, []byte("\r\n")))}, " ")
		}},
		{"no_done", "no [DONE]", func(t *testing.T, body []byte, _ []*jsonObject) string {
			return itoa(bytes.Count(body, []byte("[DONE]")))
		}},
		{"comments", "comment lines, data events unchanged", func(t *testing.T, body []byte, _ []*jsonObject) string {
			return "comments=" + itoa(bytes.Count(body, []byte(":"+" keepalive\n"))) + " data=" + itoa(bytes.Count(body, []byte("data: ")))
		}},
		{"finish_stop", "finish_reason stop", func(t *testing.T, body []byte, _ []*jsonObject) string {
			return itoa(bytes.Count(body, []byte(`"finish_reason":"stop"`))) + " " + itoa(bytes.Count(body, []byte(`"tool_calls"`)))
		}},
	}
	want := map[string]string{
		"index_plus_1":       "1 1 1 1 1 2 2 2 2",
		"index_minus_1":      "-1 -1 -1 -1 -1 0 0 0 0",
		"interleaved_calls":  "0 1 0 1 0 1 0 1 0",
		"all_index_0":        "0 0 0 0 0 0 0 0 0",
		"no_index":           "- - - - - - - - -",
		"args_one_rune":      "",
		"args_split_escapes": `|{"pattern":"func \|"(\|\w+)\|"","path":"src"}||{"path":"caf\|u00|e9 笔记.md"}`,
		"id_every_piece":     "call_A call_A call_A call_A call_A call_M call_M call_M call_M",
		"name_every_piece":   "grep grep grep grep grep read_file read_file read_file read_file",
		"ids_dropped":        `- - - - - "" - - -`,
		"crlf":               "lf=30 crlf=30",
		"no_done":            "0",
		"comments":           "comments=14 data=15",
		"finish_stop":        "1 9",
	}
	for _, tt := range tests {
		t.Run(tt.quirk, func(t *testing.T) {
			body := apply(t, tt.quirk)
			got := tt.check(t, body, pieces(t, body))
			if diff := cmp.Diff(want[tt.quirk], got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

func indexes(tcs []*jsonObject) string {
	var out []string
	for _, tc := range tcs {
		v, ok := tc.get("index")
		if !ok {
			out = append(out, "-")
			continue
		}
		out = append(out, string(v.(json.Number)))
	}
	return strings.Join(out, " ")
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestQuirksLeaveTextOnlyStreamsAlone(t *testing.T) {
	text := []byte("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	framing := map[string]bool{"crlf": true, "comments": true, "no_done": true, "content_parts": true, "several_choices": true}
	for _, q := range chatQuirks() {
		if framing[q.Name] {
			continue
		}
		got, err := q.Apply(text, 1)
		if err != nil {
			t.Errorf("%s: %v", q.Name, err)
			continue
		}
		if diff := cmp.Diff(string(text), string(got)); diff != "" {
			t.Errorf("%s changed a stream without calls (-want +got):\n%s", q.Name, diff)
		}
	}
}

func TestQuirkNotApplicable(t *testing.T) {
	clean := readFixture(t, "clean.sse")
	inter, _ := ByName("interleaved_calls")
	body, err := inter.Apply(clean, 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ quirk, reason, wantErr string }{
		{"no_index", "without an index interleaved pieces cannot be told apart", "calls are interleaved: quirk does not apply to this stream"},
		{"all_index_0", "at one index interleaved pieces cannot be told apart", "calls are interleaved: quirk does not apply to this stream"},
	}
	for _, tt := range tests {
		q, _ := ByName(tt.quirk)
		_, err := q.Apply(body, 1)
		if !errors.Is(err, ErrNotApplicable) {
			t.Errorf("%s (%s): err = %v, want ErrNotApplicable", tt.quirk, tt.reason, err)
			continue
		}
		if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
			t.Errorf("%s error text (-want +got):\n%s", tt.quirk, diff)
		}
	}
}

// mustQuirk returns the named quirk; the name is a constant of the test.
func mustQuirk(name string) Quirk {
	q, ok := ByName(name)
	if !ok {
		panic("no quirk " + name)
	}
	return q
}

// FuzzQuirks feeds every transform arbitrary bodies: an error is fine, a
// panic is not, and a benign transform of a stream the reference merges
// must merge to the same calls' names and arguments.
func FuzzQuirks(f *testing.F) {
	f.Add(readFixture(f, "clean.sse"))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"x\",\"arguments\":\"{\\\"k\\\":\\\"\\\\u00e9\\\"}\"}},{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"y\"}}]}}]}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, q := range All() {
			out, err := q.Apply(body, 1)
			if err != nil || !q.Benign || q.Name == "interleaved_calls" {
				continue
			}
			before, err1 := refMerge(body)
			after, err2 := refMerge(out)
			if err1 != nil || err2 != nil || !cleanShape(body) {
				continue
			}
			names := func(r refTurn) (out []string) {
				for _, c := range r.Calls {
					out = append(out, c.Name+" "+c.Arguments)
				}
				return out
			}
			if diff := cmp.Diff(names(before), names(after)); diff != "" {
				t.Errorf("%s changed the calls (-before +after):\n%s", q.Name, diff)
			}
		}
	})
}

// cleanShape reports whether body is in the shape the transforms assume:
// every piece has a numeric index, each call's pieces come together, and a
// call's first piece carries a distinct non-empty id and a name.
func cleanShape(body []byte) bool {
	s, err := parseQuirkStream(body)
	if err != nil {
		return false
	}
	groups := s.calls()
	ids := map[string]bool{}
	for _, g := range groups {
		head := s.items[g.items[0]].toolCall()
		if _, err := g.index.Int64(); err != nil || g.id == "" || ids[g.id] || head.str("id") != g.id ||
			head.object("function").str("name") == "" {
			return false
		}
		ids[g.id] = true
		for _, i := range g.items[1:] {
			tc := s.items[i].toolCall()
			if v, ok := tc.get("id"); ok && v != g.id && v != "" {
				return false
			}
			if _, ok := tc.get("index"); !ok {
				return false
			}
		}
	}
	return contiguous(groups, s)
}

func BenchmarkQuirkApply(b *testing.B) {
	clean := readFixture(b, "clean.sse")
	for _, name := range []string{"interleaved_calls", "args_one_rune", "crlf"} {
		q := mustQuirk(name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(clean)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := q.Apply(clean, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
