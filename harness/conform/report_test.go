package conform

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/internal/golden"
)

// sampleResults are four verdicts of every status, one of them a failure
// the baseline lists.
func sampleResults(t *testing.T) []Result {
	t.Helper()
	pick, err := SelectCases(Cases(), []string{"clean", "index_plus_1", "all_index_0", "truncated", "fault_429", "fault_stall"})
	if err != nil {
		t.Fatal(err)
	}
	return []Result{
		{Case: pick[0], Status: Success, Details: "2 calls re-sent and answered; exit 0", Duration: 120 * time.Millisecond, Requests: make([][]byte, 2)},
		{Case: pick[1], Status: Failure, Details: "request 2: the assistant message does not re-send the merged calls", Diff: "  []conform.callView{\n+ \t{},\n  \t{Name: \"glob\"},\n  }\n", ExitCode: 0, Duration: 80 * time.Millisecond, Requests: make([][]byte, 2)},
		{Case: pick[2], Status: Failure, Expected: true, Details: "request 2: call \"call_1\" is answered twice (message 5)", Duration: 90 * time.Millisecond, Requests: make([][]byte, 2)},
		{Case: pick[3], Status: Skipped, Details: "the transform changes none of the replies the agent asked for", Duration: 10 * time.Millisecond, Requests: make([][]byte, 1)},
		{Case: pick[4], Status: Warning, Details: "gave up on a 429 with Retry-After: 1 (exit 1) instead of waiting and retrying", ExitCode: 1, Duration: 30 * time.Millisecond, Requests: make([][]byte, 1)},
		{Case: pick[5], Status: Failure, Details: "the agent did not give up on a stalled stream within -timeout 2s: killed", ExitCode: -1, TimedOut: true, Duration: 2 * time.Second, Requests: make([][]byte, 1)},
	}
}

func TestReports(t *testing.T) {
	for _, tt := range []struct {
		name  string
		write func(*bytes.Buffer, []Result) error
	}{
		{"report.table.golden", func(b *bytes.Buffer, r []Result) error { return WriteTable(b, r) }},
		{"report.json.golden", func(b *bytes.Buffer, r []Result) error { return WriteJSON(b, r) }},
		{"report.junit.golden", func(b *bytes.Buffer, r []Result) error { return WriteJUnit(b, r) }},
		{"report.md.golden", func(b *bytes.Buffer, r []Result) error {
			return WriteMarkdown(b, RunInfo{API: "chat", Agent: "node agent.js", Shard: "2/3"}, r)
		}},
	} {
		var b bytes.Buffer
		if err := tt.write(&b, sampleResults(t)); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", tt.name), b.Bytes())
	}
}

func TestBaselineJudge(t *testing.T) {
	results := sampleResults(t)
	b, err := ParseBaseline("b", []byte("all_index_0 # answered twice\nclean\n\ntruncated\n"), Cases())
	if err != nil {
		t.Fatal(err)
	}
	results[2].Expected = false
	unexpected, stale := b.Judge(results)
	var ids []string
	for _, r := range unexpected {
		ids = append(ids, r.Case.ID)
	}
	if diff := cmp.Diff([]string{"index_plus_1", "fault_stall"}, ids); diff != "" {
		t.Errorf("unexpected failures (-want +got):\n%s", diff)
	}
	// clean passes although listed: stale. truncated was skipped: not stale.
	if diff := cmp.Diff([]string{"clean"}, stale); diff != "" {
		t.Errorf("stale entries (-want +got):\n%s", diff)
	}
	if !results[2].Expected {
		t.Error("all_index_0 is not marked expected")
	}
}

// What the agent sent cannot break the Markdown table: a pipe, a tag, a
// backtick and a newline stay inside their cell, as text.
func TestMarkdownEscapes(t *testing.T) {
	pick, _ := SelectCases(Cases(), []string{"crlf"})
	results := []Result{{Case: pick[0], Status: Failure, Details: "sent <script>|x` \nnext", Diff: "  {\n-\ta|b\n+\t<b>`\n  }\n"}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, RunInfo{API: "chat", Shard: "1/2", Agent: "sh -c 'a | b`'"}, results); err != nil {
		t.Fatal(err)
	}
	want := "### agentvcr conform -api chat, shard 1/2\n\nAgent: ``sh -c 'a | b`'``\n\n| case | verdict | first difference |\n|---|---|---|\n" +
		"| `crlf` | FAILURE | ``sent <script>\\|x` \\nnext``<br>`-\ta\\|b` |\n\n1 cases: 0 SUCCESS, 1 FAILURE, 0 WARNING, 0 SKIPPED\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

// Hostile text as a table cell's code span: the fence is longer than any backtick run
// inside, padded where the text starts or ends with a backtick or a space,
// a pipe is escaped for the table, a newline is shown as \n; and as a
// plain word, every ASCII punctuation character but '/' is escaped.
func TestMarkdownCodeAndPlain(t *testing.T) {
	for _, tt := range []struct{ reason, in, code, plain string }{
		{"a link", "[docs](https://x.test/a)", "`[docs](https://x.test/a)`", `\[docs\]\(https\://x\.test/a\)`},
		{"an image", "![x](https://x.test/p.png)", "`![x](https://x.test/p.png)`", `\!\[x\]\(https\://x\.test/p\.png\)`},
		{"HTML", "<h1>big</h1><img src=x>", "`<h1>big</h1><img src=x>`", `\<h1\>big\</h1\>\<img src\=x\>`},
		{"an entity", "&lt;", "`&lt;`", `\&lt\;`},
		{"a row of its own", "x |\n| a | b |", "`x \\|\\n\\| a \\| b \\|`", `x \|\\n\| a \| b \|`},
		{"a backtick inside", "a`b", "``a`b``", "a\\`b"},
		{"a run of three", "a```b``", "```` a```b`` ````", "a\\`\\`\\`b\\`\\`"},
		{"a backtick first", "`x", "`` `x ``", "\\`x"},
		{"spaces at both ends", " x ", "`  x  `", " x "},
		{"a space at one end", " x", "` x`", " x"},
		{"nothing", "", "", ""},
		{"a backslash before a pipe", `a\|b`, "`a\\\\|b`", `a\\\|b`},
		{"emphasis and a heading", "# *a* __b__", "`# *a* __b__`", `\# \*a\* \_\_b\_\_`},
		{"an escape and a CR", "\x1b[2J\r", "`\\x1b[2J\\r`", `\\x1b\[2J\\r`},
	} {
		if got := mdCellCode(tt.in); got != tt.code {
			t.Errorf("%s: mdCellCode(%q) = %q, want %q", tt.reason, tt.in, got, tt.code)
		}
		if got := mdPlain(tt.in); got != tt.plain {
			t.Errorf("%s: mdPlain(%q) = %q, want %q", tt.reason, tt.in, got, tt.plain)
		}
	}
}
