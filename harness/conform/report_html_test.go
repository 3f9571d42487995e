package conform

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// htmlOf runs agent mode over the cases named and writes the HTML report.
func htmlOf(t *testing.T, mode string, names ...string) string {
	t.Helper()
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(mode), Cases: SelectCasesOrDie(t, Cases(), names...), Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteHTML(&b, RunInfo{API: "chat", Agent: "positional agent"}, results); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The page of a run: the summary counts, one section per case with its
// verdict, the first difference with its lines marked, the stream the
// quirk changed against the clean one, the requests one message a block,
// and the script once, allowed by the policy's hash.
func TestHTMLReportOfARun(t *testing.T) {
	page := htmlOf(t, agentPositional, "clean", "index_plus_1", "args_one_rune", "truncated")
	for _, want := range []string{
		`<p id="totals">4 cases: 3 SUCCESS, 1 FAILURE, 0 WARNING, 0 SKIPPED</p>`,
		`<tr><td>all</td><td class="all" data-status="SUCCESS">3</td><td class="all" data-status="FAILURE">1</td><td class="all" data-status="WARNING">0</td><td class="all" data-status="SKIPPED">0</td></tr>`,
		`<section class="case" id="case-index_plus_1" data-status="FAILURE" data-tier="quirk">`,
		`<h2>index_plus_1</h2><span class="verdict">FAILURE</span>`,
		`<p class="details">request 2: the assistant message does not re-send the merged calls; conform stopped the agent there</p>`,
		`The stream served on request 1, against the clean turn (<span class="del">dropped</span>, <span class="ins">added</span>)`,
		`<a href="https://github.com/vercel/ai/issues/19165" rel="noreferrer">vercel/ai #19165</a>`,
		`<summary>Request 2 as the agent sent it, one message a block</summary>`,
		`Agent: <code id="agent">positional agent</code>.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	// go-cmp's diffs space their lines with a space or a no-break space, at
	// random
	if !regexp.MustCompile(`<span class="line ins">&#43;[\s\x{a0}]*\{ID: &#34;call_0&#34;\},</span>`).MatchString(page) {
		t.Error("the page does not mark the diff's added line")
	}
	// index_plus_1 shifts every index by one: the clean turn's index 0
	// line is dropped and its index 1 line added.
	if !regexp.MustCompile(`<span class="line del">data: [^<]*&#34;index&#34;:0,&#34;id&#34;`).MatchString(page) ||
		!regexp.MustCompile(`<span class="line ins">data: [^<]*&#34;index&#34;:1,&#34;id&#34;`).MatchString(page) {
		t.Error("index_plus_1's stream does not mark the rewritten index lines")
	}
	// index_plus_1's request 2 against clean's: the positional agent's
	// extra empty call and its answer are the lines only in this case.
	if !regexp.MustCompile(`(?s)id="case-index_plus_1".*?Request 2 against the clean run.*?<span class="line ins">      &#34;id&#34;: &#34;call_0&#34;,</span>.*?<span class="line same">… 13 lines the same</span>.*?<span class="line ins">  &#34;tool_call_id&#34;: &#34;call_0&#34;</span>`).MatchString(page) {
		t.Error("index_plus_1's request 2 is not shown against the clean run's")
	}
	if strings.Contains(page, `id="case-clean"`) && regexp.MustCompile(`(?s)id="case-clean".*?class="against".*?id="case-index_plus_1"`).MatchString(page) {
		t.Error("the clean case is compared with itself")
	}
	if n := strings.Count(page, "<section class=\"case\""); n != 4 {
		t.Errorf("%d case sections, want 4", n)
	}
	for _, tag := range []string{"section", "details", "pre", "table", "p"} {
		if o, c := strings.Count(page, "<"+tag+">")+strings.Count(page, "<"+tag+" "), strings.Count(page, "</"+tag+">"); o != c {
			t.Errorf("<%s>: %d opened, %d closed", tag, o, c)
		}
	}
	if strings.Count(page, "<script") != 1 || !strings.Contains(page, "<script>"+reportScript+"</script>") {
		t.Error("the page does not hold the filter script exactly once")
	}
	if !strings.Contains(page, `script-src &#39;sha256-`) {
		t.Error("the policy allows no script by its hash")
	}
}

// Nothing the agent prints, sends or is named by renders as markup or
// runs: text from the agent, the case and the run is escaped, and a
// source links only to the GitHub issue it names.
func TestHTMLReportEscapesAgentText(t *testing.T) {
	hostile := `<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a>`
	results := []Result{{
		Case:    Case{ID: "clean", Tier: TierQuirk, Doc: hostile, Source: "javascript:alert(4) a/b #1 " + hostile, File: hostile},
		Status:  Failure,
		Details: "request 2: " + hostile,
		Diff:    "  - " + hostile + "\n  + " + hostile,
		Stdout:  []byte(hostile), Stderr: []byte(hostile),
		Requests: [][]byte{[]byte(`{"messages":[{"role":"user","content":` + jsonString(hostile) + `}]}`), []byte(hostile)},
		Answers:  []Answer{{Request: 1, Served: []byte("data: " + hostile + "\n\n"), Clean: []byte("data: {}\n\n")}},
	}}
	var b strings.Builder
	if err := WriteHTML(&b, RunInfo{API: "chat", Agent: hostile, Shard: "1/2"}, results); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<img", "<a href=\"javascript", "<script>alert"} { // the text itself shows, escaped
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if strings.Count(page, "<script") != 1 {
		t.Errorf("%d script elements, want the page's own alone", strings.Count(page, "<script"))
	}
	if hrefs := regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(page, -1); len(hrefs) != 1 || hrefs[0][1] != "https://github.com/a/b/issues/1" {
		t.Errorf("links %v, want the one issue the source names", hrefs)
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the agent's text is not shown, escaped")
	}
}

func jsonString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// A terminal's colour sequences in the details and the output are left
// out: opencode prints its errors in red even to a pipe.
func TestHTMLReportDropsTerminalSequences(t *testing.T) {
	red := "\x1b[91m\x1b[1mError: \x1b[0mExpected 'id' to be a string."
	results := []Result{{Case: Case{ID: "ids_dropped", Tier: TierQuirk}, Status: Failure,
		Details: "the agent never sent the tool results: 1 request, exit 1 (stderr: " + red + ")", Stderr: []byte(red + "\n")}}
	var b strings.Builder
	if err := WriteHTML(&b, RunInfo{}, results); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "\x1b") || !strings.Contains(page, "(stderr: Error: Expected &#39;id&#39; to be a string.)</p>") ||
		!strings.Contains(page, "<pre>Error: Expected &#39;id&#39; to be a string.\n</pre>") {
		t.Errorf("the page keeps terminal sequences, or lost the text around them:\n%s", page)
	}
}

// A fault's answer says what was sent of it: a stall's first events, then
// nothing; a 500 instead of the stream.
func TestHTMLReportOfFaults(t *testing.T) {
	page := htmlOf(t, agentGood, "clean", "fault_stall", "fault_500")
	for _, want := range []string{
		`<p>a stall: the first 14 events below were sent, then the stream stayed open with nothing more; the details say when the agent gave up</p>`,
		`<p>answered with the fault 500 instead of the stream below</p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// -out keeps every answer and ReadOut reads them back as they were: a
// stream the quirk changed with its clean turn, and the whole turn a
// request that asked for no stream was answered (answer-N.json).
func TestOutKeepsTheAnswers(t *testing.T) {
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentFallback), Cases: SelectCasesOrDie(t, Cases(), "clean", "comments"), Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := OpenOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Write(results, nil); err != nil {
		t.Fatal(err)
	}
	out.Close()
	back := make([]Result, len(results))
	for i, r := range results {
		back[i] = Result{Case: r.Case, Requests: make([][]byte, len(r.Requests))}
	}
	if err := ReadOut(dir, back); err != nil {
		t.Fatal(err)
	}
	comments := results[1].Answers
	if !slices.ContainsFunc(comments, func(a Answer) bool { return a.Whole }) || !slices.ContainsFunc(comments, func(a Answer) bool { return a.Clean != nil }) {
		t.Fatalf("the comments case's answers hold no whole turn or no changed stream: %+v", comments)
	}
	for i := range results {
		if diff := cmp.Diff(results[i].Answers, back[i].Answers); diff != "" {
			t.Errorf("%s: the answers read back differ (-run +read):\n%s", results[i].Case.ID, diff)
		}
	}
}
