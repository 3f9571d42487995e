package markdowncheck

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/internal/cli"
)

// hostile is what an agent may have printed or sent, as a case's details,
// and the text its code span must show: as sent, but a newline or a CR as
// \n or \r, as agentvcr escapes them on one line.
var hostile = []struct{ id, details, shown string }{
	{"index_plus_1", "see [docs](https://evil.test/a) and ![x](https://evil.test/p.png)",
		"see [docs](https://evil.test/a) and ![x](https://evil.test/p.png)"},
	{"index_minus_1", "<h1>big</h1><img src=x onerror=alert(1)><script>alert(1)</script>",
		"<h1>big</h1><img src=x onerror=alert(1)><script>alert(1)</script>"},
	{"all_index_0", "a | b |\n| forged | row | here |\nnext",
		`a | b |\n| forged | row | here |\nnext`},
	{"crlf", "```` fence ` and `` end`", "```` fence ` and `` end`"},
	{"no_done", `&lt;img&gt; &#x3C;a href=x&#x3E; \| x \\| y`, `&lt;img&gt; &#x3C;a href=x&#x3E; \| x \\| y`},
	{"no_index", "**bold** _em_ ~~del~~ # h https://evil.test www.evil.test <https://evil.test> <b@evil.test>",
		"**bold** _em_ ~~del~~ # h https://evil.test www.evil.test <https://evil.test> <b@evil.test>"},
	{"truncated", "ends in a backslash \\", "ends in a backslash \\"},
	{"finish_length", "\r\n- [ ] task\n> quote\n---\n<!-- c -->", `\r\n- [ ] task\n> quote\n---\n<!-- c -->`},
}

// The diff every case carries, and the line of it the table shows.
const (
	hostileDiff = "  {\n-\t[a](https://evil.test)|`<img src=x>`\n+\tok\n  }\n"
	diffShown   = "-\t[a](https://evil.test)|`<img src=x>`"
	agentLine   = "node agent.js [x](https://evil.test) <img src=x> | ``` <h1>"
)

// reportMD writes the hostile cases as conform -json does and returns
// what `agentvcr report md` prints for that file.
func reportMD(t *testing.T) string {
	t.Helper()
	ids := make([]string, len(hostile))
	for i, h := range hostile {
		ids[i] = h.id
	}
	cases, err := conform.SelectCases(conform.Cases(), ids)
	if err != nil {
		t.Fatal(err)
	}
	results := make([]conform.Result, len(cases))
	for i, c := range cases {
		k := slices.IndexFunc(hostile, func(h struct{ id, details, shown string }) bool { return h.id == c.ID })
		results[i] = conform.Result{Case: c, Status: conform.Failure, Details: hostile[k].details, Diff: hostileDiff}
	}
	var b bytes.Buffer
	if err := conform.WriteRunJSON(&b, conform.RunInfo{API: "chat", Agent: agentLine, Shard: "2/3"}, results); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	env := cli.ProcessEnv()
	env.Stdout, env.Stderr = &out, &errs
	if code := cli.Main(env, []string{"report", "md", file}); code != 0 || errs.Len() > 0 {
		t.Fatalf("report md: exit %d: %s", code, errs.String())
	}
	return out.String()
}

var (
	tagRE  = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)`)
	rowRE  = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`(?s)<t[dh]>(.*?)</t[dh]>`)
	codeRE = regexp.MustCompile(`(?s)<code>(.*?)</code>`)
)

// The tags a report's page may have: all of them agentvcr's own.
var ownTags = []string{"h3", "p", "code", "table", "thead", "tbody", "tr", "th", "td", "br"}

// What report md writes, rendered by CommonMark with GFM's tables (and
// again with all of GFM, autolinks among it), raw HTML let through: only
// agentvcr's own tags, one row of three cells per case, each code span
// the agent's text as sent.
func TestHostileTextRendersAsText(t *testing.T) {
	md := reportMD(t)
	for _, r := range []struct {
		name string
		ext  goldmark.Extender
	}{{"CommonMark with GFM tables", extension.Table}, {"GFM", extension.GFM}} {
		var page bytes.Buffer
		gm := goldmark.New(goldmark.WithExtensions(r.ext), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
		if err := gm.Convert([]byte(md), &page); err != nil {
			t.Fatal(err)
		}
		out := page.String()
		for _, m := range tagRE.FindAllStringSubmatch(out, -1) {
			if !slices.Contains(ownTags, strings.ToLower(m[2])) {
				t.Errorf("%s: a tag <%s%s> is on the page:\n%s\nfrom\n%s", r.name, m[1], m[2], out, md)
			}
		}
		if strings.Contains(out, "<!--") {
			t.Errorf("%s: an HTML comment is on the page:\n%s", r.name, out)
		}
		if want := "<h3>agentvcr conform -api chat, shard 2/3</h3>\n<p>Agent: <code>" + html.EscapeString(agentLine) + "</code></p>\n"; !strings.HasPrefix(out, want) {
			t.Errorf("%s: the page starts\n%s\nwant\n%s", r.name, out[:min(len(out), len(want)+40)], want)
		}
		rows := rowRE.FindAllStringSubmatch(out, -1)
		if len(rows) != 1+len(hostile) {
			t.Fatalf("%s: %d rows, want %d:\n%s", r.name, len(rows), 1+len(hostile), out)
		}
		for _, row := range rows[1:] {
			cells := cellRE.FindAllStringSubmatch(row[1], -1)
			if len(cells) != 3 {
				t.Errorf("%s: a row of %d cells, want 3: %s", r.name, len(cells), row[1])
				continue
			}
			id := codeText(t, cells[0][1])
			k := slices.IndexFunc(hostile, func(h struct{ id, details, shown string }) bool { return len(id) == 1 && h.id == id[0] })
			if k < 0 {
				t.Errorf("%s: a row of no case: %s", r.name, row[1])
				continue
			}
			if cells[1][1] != "FAILURE" {
				t.Errorf("%s: %s: verdict %q", r.name, hostile[k].id, cells[1][1])
			}
			got := codeText(t, cells[2][1])
			if want := []string{hostile[k].shown, diffShown}; !slices.Equal(got, want) {
				t.Errorf("%s: %s: the cell shows %q, want %q\n(cell %s)", r.name, hostile[k].id, got, want, cells[2][1])
			}
			if rest := codeRE.ReplaceAllString(cells[2][1], ""); rest != "<br>" {
				t.Errorf("%s: %s: besides its code spans the cell holds %q, want <br>", r.name, hostile[k].id, rest)
			}
		}
	}
}

// codeText is the text of every code span in a piece of the page.
func codeText(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for _, m := range codeRE.FindAllStringSubmatch(s, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}
