package conform

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
)

// WriteHTML writes the report as one self-contained HTML page: a summary
// of the run (its format, agent, shard; the verdicts in all and per tier),
// filters by verdict and tier, and per case what a maintainer needs to
// judge its verdict without opening another file: the details line, the
// first difference (-want +got) with its lines marked, the stream served
// on the turn the quirk changed beside the clean one (lines the quirk
// added, dropped or rewrote marked), each request the agent sent with its
// conversation one message a block, and the ends of its stdout and stderr.
//
// Everything comes from results: a run's (conform -html) has all of it;
// a JSON report's (report html) has the verdicts only, and -out's folder
// adds the rest (ReadOutFolder).
//
// The page loads nothing: its style and its one script are inline, and its
// Content-Security-Policy allows that script alone (by its hash), no other
// script, no connection, no frame. Every text from the agent or the run is
// escaped by html/template, so nothing the agent prints or sends renders
// as markup or runs; a source is linked only to a GitHub issue it names.
// Without the script every case shows; the filters hide the others, and
// the page's fragment sets them (#status=FAILURE,WARNING&tier=quirk).
func WriteHTML(w io.Writer, run RunInfo, results []Result) error {
	return reportPage.Execute(w, htmlReport(run, results))
}

//go:embed report_html.tmpl
var reportTemplate string

//go:embed report_html.js
var reportScript string

// reportPage is the page's template; the script's hash goes into the
// Content-Security-Policy.
var reportPage = template.Must(template.New("report").Parse(reportTemplate))

// htmlPage is what the template reads.
type htmlPage struct {
	Title    string
	Run      RunInfo
	Totals   string
	Statuses []htmlCount
	Tiers    []htmlTier
	Longest  string
	Cases    []htmlCase
	Script   template.JS
	Policy   string
}

type htmlCount struct {
	Name  string
	Count int
}

type htmlTier struct {
	Name   string
	Counts []htmlCount // one per status, in Statuses' order
}

type htmlCase struct {
	ID, Tier, Status, Verdict string
	Doc, Details, File        string
	Source                    []htmlSegment
	Duration                  string
	Requests                  int
	ExitCode                  int
	TimedOut                  bool
	Diff                      []htmlLine
	Stream                    *htmlStream
	Sent                      []htmlRequest
	Against                   *htmlAgainst
	Stdout, Stderr            htmlExcerpt
}

// An htmlAgainst is a request of the case beside the same request of the
// agent's clean run, as a diff of their conversations: on a benign case
// the agent was to send what it sent in clean.
type htmlAgainst struct {
	Request int
	Lines   []htmlLine
}

// An htmlSegment is a piece of a source: text, linked when URL is set.
type htmlSegment struct{ Text, URL string }

// An htmlLine is a line of a diff: Kind is "", "del" or "ins".
type htmlLine struct{ Kind, Text string }

// An htmlStream is the answer to one request: its lines against the clean
// turn's when the case changed it.
type htmlStream struct {
	Request int
	Changed bool
	Note    string
	Lines   []htmlLine
}

type htmlRequest struct {
	N        int
	Messages []string // one block per message (or item, or content) of the conversation
}

type htmlExcerpt struct {
	Text string
	Cut  int // bytes left out before Text
}

var htmlStatuses = []Status{Success, Failure, Warning, Skipped}

func htmlReport(run RunInfo, results []Result) htmlPage {
	p := htmlPage{Title: "agentvcr conform", Run: run, Totals: Totals(results), Script: template.JS(reportScript)}
	sum := sha256.Sum256([]byte(reportScript))
	p.Policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if run.API != "" {
		p.Title += " -api " + run.API
	}
	counts := map[Status]int{}
	tiers := map[Tier]map[Status]int{}
	var tierOrder []Tier
	var longest Result
	var probe *Result
	for i, r := range results {
		if isFirstCase(r.Case.ID) {
			probe = &results[i]
			break
		}
	}
	for _, r := range results {
		counts[r.Status]++
		if tiers[r.Case.Tier] == nil {
			tiers[r.Case.Tier] = map[Status]int{}
			tierOrder = append(tierOrder, r.Case.Tier)
		}
		tiers[r.Case.Tier][r.Status]++
		if r.Duration > longest.Duration {
			longest = r
		}
		c := htmlCaseOf(r)
		if probe != nil && r.Case.ID != probe.Case.ID {
			c.Against = againstClean(*probe, r)
		}
		p.Cases = append(p.Cases, c)
	}
	for _, s := range htmlStatuses {
		p.Statuses = append(p.Statuses, htmlCount{string(s), counts[s]})
	}
	for _, t := range tierOrder {
		ht := htmlTier{Name: string(t)}
		for _, s := range htmlStatuses {
			ht.Counts = append(ht.Counts, htmlCount{string(s), tiers[t][s]})
		}
		p.Tiers = append(p.Tiers, ht)
	}
	if longest.Duration > 0 {
		p.Longest = fmt.Sprintf("%s (%s)", longest.Case.ID, longest.Duration.Truncate(time.Millisecond))
	}
	return p
}

// htmlCaseOf is a result as the page shows it. Durations are cut to the
// millisecond, as the JSON report keeps them, so that a page rebuilt from
// the report and -out is the run's own.
func htmlCaseOf(r Result) htmlCase {
	c := htmlCase{ID: r.Case.ID, Tier: string(r.Case.Tier), Status: string(r.Status), Verdict: string(r.Status),
		Doc: r.Case.Doc, Details: withoutANSI(r.Details), File: r.Case.File, Source: sourceSegments(r.Case.Source),
		Duration: r.Duration.Truncate(time.Millisecond).String(), Requests: len(r.Requests), ExitCode: r.ExitCode, TimedOut: r.TimedOut,
		Stdout: excerpt(r.Stdout), Stderr: excerpt(r.Stderr)}
	if r.Expected {
		c.Verdict += " (baseline)"
	}
	if r.OtherProvider != "" && r.Status == Failure {
		c.Verdict += " (" + r.OtherProvider + ")"
	}
	for _, l := range strings.Split(strings.TrimRight(r.Diff, "\n"), "\n") {
		if r.Diff == "" {
			break
		}
		kind := ""
		switch t := strings.TrimLeft(l, " \t"); {
		case strings.HasPrefix(t, "-"):
			kind = "del"
		case strings.HasPrefix(t, "+"):
			kind = "ins"
		}
		c.Diff = append(c.Diff, htmlLine{kind, l})
	}
	c.Stream = streamOf(r.Answers)
	for i, body := range r.Requests {
		if len(body) == 0 {
			continue // a JSON report's count, with no -out to read the body from
		}
		c.Sent = append(c.Sent, htmlRequest{N: i + 1, Messages: conversationBlocks(body)})
	}
	return c
}

// issueRef finds "owner/repo #N" and "owner/repo PR #N" in a source.
var issueRef = regexp.MustCompile(`\b([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+) (PR )?#([0-9]+)\b`)

// sourceSegments splits a source into text and links: each reference to a
// GitHub issue or pull request with its owner becomes a link to it (GitHub
// redirects an issue number that is a pull request, and the other way).
func sourceSegments(source string) []htmlSegment {
	var segs []htmlSegment
	at := 0
	for _, m := range issueRef.FindAllStringSubmatchIndex(source, -1) {
		if m[0] > at {
			segs = append(segs, htmlSegment{Text: source[at:m[0]]})
		}
		repo, num := source[m[2]:m[3]], source[m[6]:m[7]]
		kind := "issues"
		if m[4] >= 0 {
			kind = "pull"
		}
		segs = append(segs, htmlSegment{Text: source[m[0]:m[1]], URL: "https://github.com/" + repo + "/" + kind + "/" + num})
		at = m[1]
	}
	if at < len(source) {
		segs = append(segs, htmlSegment{Text: source[at:]})
	}
	return segs
}

// maxExcerpt is how much of the end of stdout and stderr the page shows.
const maxExcerpt = 4000

// ansiEscape is a terminal's colour or cursor sequence (CSI), which agents
// print on stderr even when it is no terminal (opencode's "Error:" in red).
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]")

// withoutANSI is s without its terminal sequences: a browser would show
// the escape character as a box and the rest as text.
func withoutANSI(s string) string { return ansiEscape.ReplaceAllString(s, "") }

// excerpt is the end of an output, at most maxExcerpt bytes of it, without
// terminal sequences; Cut counts the bytes left out before it.
func excerpt(b []byte) htmlExcerpt {
	if len(b) <= maxExcerpt {
		return htmlExcerpt{Text: withoutANSI(string(b))}
	}
	cut := len(b) - maxExcerpt
	for cut < len(b) && b[cut]&0xC0 == 0x80 { // start on a rune
		cut++
	}
	return htmlExcerpt{Text: withoutANSI(string(b[cut:])), Cut: cut}
}

// streamOf is the answer the page shows: the first one the case's
// transform changed, against the clean turn, or else the first answer.
func streamOf(answers []Answer) *htmlStream {
	if len(answers) == 0 {
		return nil
	}
	a := answers[0]
	if i := slices.IndexFunc(answers, func(a Answer) bool { return a.Clean != nil }); i >= 0 {
		a = answers[i]
	}
	s := &htmlStream{Request: a.Request}
	switch {
	case a.Status != 0:
		s.Note = fmt.Sprintf("answered HTTP %d instead", a.Status)
	case a.Fault == FaultStall:
		s.Note = fmt.Sprintf("a stall: the first %d events below were sent, then the stream stayed open with nothing more; the details say when the agent gave up", a.FaultAfter)
	case a.Fault == FaultReset:
		s.Note = fmt.Sprintf("a reset: the first %d events below were sent, then the connection was closed", a.FaultAfter)
	case a.Fault != "":
		s.Note = fmt.Sprintf("answered with the fault %s instead of the stream below", a.Fault)
	}
	if a.Clean == nil {
		for _, l := range streamLines(a.Served) {
			s.Lines = append(s.Lines, htmlLine{Text: l})
		}
		return s
	}
	s.Changed = true
	s.Lines = lineDiff(streamLines(a.Clean), streamLines(a.Served))
	return s
}

// maxStreamLines bounds the lines of a stream the page compares.
const maxStreamLines = 1500

// streamLines are a body's lines, a carriage return shown as ␍ so that a
// CRLF stream differs visibly from an LF one.
func streamLines(body []byte) []string {
	lines := strings.SplitAfter(string(body), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	if len(lines) > maxStreamLines {
		lines = append(lines[:maxStreamLines:maxStreamLines], fmt.Sprintf("… %d lines more\n", len(lines)-maxStreamLines))
	}
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\n")
		lines[i] = strings.ReplaceAll(l, "\r", "␍")
	}
	return lines
}

// lineDiff marks the lines of b against a: the longest common subsequence
// kept, a's other lines dropped (del), b's added (ins), each run of drops
// before the additions that replace it.
func lineDiff(a, b []string) []htmlLine {
	n, m := len(a), len(b)
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	var out []htmlLine
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, htmlLine{Text: a[i]})
			i, j = i+1, j+1
		case i < n && (j == m || *at(i+1, j) >= *at(i, j+1)):
			out = append(out, htmlLine{Kind: "del", Text: a[i]})
			i++
		default:
			out = append(out, htmlLine{Kind: "ins", Text: b[j]})
			j++
		}
	}
	return out
}

// againstClean is the case's request after the tool turn (request 2)
// against the clean run's, when the case is benign (the agent was to do
// in it what it did in clean) and both runs sent it; runs of more than
// contextLines unchanged lines are folded.
func againstClean(clean, r Result) *htmlAgainst {
	switch r.Case.Expect {
	case ExpectSame, ExpectEcho:
	default:
		return nil
	}
	const n = 2
	if len(clean.Requests) < n || len(r.Requests) < n || len(clean.Requests[n-1]) == 0 || len(r.Requests[n-1]) == 0 {
		return nil
	}
	lines := func(body []byte) []string {
		var out []string
		for _, b := range conversationBlocks(body) {
			out = append(out, strings.Split(b, "\n")...)
		}
		return out
	}
	diff := lineDiff(lines(clean.Requests[n-1]), lines(r.Requests[n-1]))
	if !slices.ContainsFunc(diff, func(l htmlLine) bool { return l.Kind != "" }) {
		return nil // the same request: nothing to show
	}
	return &htmlAgainst{Request: n, Lines: folded(diff)}
}

// contextLines is how many unchanged lines a folded diff keeps around a
// change.
const contextLines = 3

// folded keeps the changed lines of a diff and contextLines around each,
// every longer run of unchanged lines cut to a line that counts them.
func folded(lines []htmlLine) []htmlLine {
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if l.Kind != "" {
			for j := max(0, i-contextLines); j <= min(len(lines)-1, i+contextLines); j++ {
				keep[j] = true
			}
		}
	}
	var out []htmlLine
	for i := 0; i < len(lines); {
		if keep[i] {
			out = append(out, lines[i])
			i++
			continue
		}
		j := i
		for j < len(lines) && !keep[j] {
			j++
		}
		out = append(out, htmlLine{Kind: "same", Text: fmt.Sprintf("… %d lines the same", j-i)})
		i = j
	}
	return out
}
