// Package agentvcr_test holds the checks that span the whole repository:
// it stands on its own, and its README and comments name only commands,
// flags, variables, files and identifiers that exist.
package agentvcr_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/cli"
)

// outsidePatterns are the references to documents that are not in the
// repository (the project's planning notes, research files, a sibling
// folder); outside is their union.
var outsidePatterns = []string{`research/[a-z_]+\.md`, `\bSPEC(\.md|'s)?\b`, `\bDESIGN\.md\b`, `\.\./shared\b`}

var outside = regexp.MustCompile(strings.Join(outsidePatterns, "|"))

// outsideLiterals holds, for each of outsidePatterns, the longest literal
// that every match of it holds, read from the parsed pattern: mayRefer scans
// for them first.
var outsideLiterals = func() [][]byte {
	var lits [][]byte
	for _, p := range outsidePatterns {
		re, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			panic(err) // outside, compiled from the same patterns, has already failed
		}
		lits = append(lits, []byte(requiredLiteral(re)))
	}
	return lits
}()

// requiredLiteral returns the longest case-sensitive literal that every
// match of re holds as a whole (a literal, or one part of a concatenation),
// or "" when there is none.
func requiredLiteral(re *syntax.Regexp) string {
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	longest := ""
	for _, sub := range parts {
		if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 && len(string(sub.Rune)) > len(longest) {
			longest = string(sub.Rune)
		}
	}
	return longest
}

// mayRefer reports whether b holds the literal of one of outsidePatterns: a
// file without any cannot match, and the literal scan is many times faster
// than the regexp, which has no prefix to look for.
func mayRefer(b []byte) bool {
	for _, lit := range outsideLiterals {
		if bytes.Contains(b, lit) {
			return true
		}
	}
	return false
}

// repoFiles returns every file of the repository worth reading (not .git,
// not node_modules, nothing over 4 MiB), slash-separated.
func repoFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() && info.Size() <= 4<<20 {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestStandsOnItsOwn: no file points a reader at a document a clone of the
// repository does not have.
func TestStandsOnItsOwn(t *testing.T) {
	for i, lit := range outsideLiterals {
		if len(lit) == 0 {
			t.Fatalf("the pattern %s has no literal that all its matches hold: mayRefer would read every file for it", outsidePatterns[i])
		}
	}
	for _, f := range repoFiles(t) {
		if f == "conventions_test.go" {
			continue // the pattern itself
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !mayRefer(b) || !outside.Match(b) {
			continue // one pass over the file; lines only to name the one that matches
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d refers to %q, which is not in the repository: say it here, in our own words, with its public source", f, i+1, m)
			}
		}
	}
}

// readme returns README.md.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docPages are the README and the pages of docs/, the documentation the
// checks below hold to the code.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil || len(pages) < 6 {
		t.Fatalf("docs/ holds %d pages (%v), want the six the README links", len(pages), err)
	}
	return append([]string{"README.md"}, pages...)
}

// docs returns the README and the pages of docs/, joined.
func docs(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, p := range docPages(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}

// commandFlags runs `agentvcr SUB -h` and returns the flags it lists, or
// false when SUB is not a command.
func commandFlags(sub string) ([]string, bool) {
	code, stdout, stderr := cli.Capture(cli.Env{Dir: "."}, sub, "-h")
	if code != 0 {
		return nil, false
	}
	var flags []string
	for _, line := range strings.Split(stdout+stderr, "\n") {
		if rest, ok := strings.CutPrefix(line, "  -"); ok && strings.TrimSpace(rest) != "" {
			flags = append(flags, strings.Fields(rest)[0]) // "-p N", or "-q\tusage" for a short bool flag
		}
	}
	return flags, true
}

// commands lists the commands `agentvcr help` names.
func commands() []string {
	_, usage, _ := cli.Capture(cli.Env{Dir: "."}, "help")
	_, list, _ := strings.Cut(usage, "commands:\n")
	list, _, _ = strings.Cut(list, "\n\n")
	var subs []string
	for _, line := range strings.Split(list, "\n") {
		subs = append(subs, strings.Fields(line)[0])
	}
	return subs
}

// TestREADMEOpensWithTheTwoCommands: the README's first block is the two
// commands a fresh machine needs, the main job and the tests, and nothing
// else (a careless edit once replaced the first with the second).
func TestREADMEOpensWithTheTwoCommands(t *testing.T) {
	text := readme(t)
	_, rest, _ := strings.Cut(text, "```\n")
	block, _, _ := strings.Cut(rest, "```")
	var cmds []string
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if want := []string{"go run ./cmd/agentvcr run", "go test ./..."}; !slices.Equal(cmds, want) {
		t.Errorf("the README's first block runs %q, want %q", cmds, want)
	}
}

// TestREADMECommands: every agentvcr command the README and docs/ name
// exists, and the README's command table lists every command agentvcr has.
func TestREADMECommands(t *testing.T) {
	text := readme(t)
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("(?:`agentvcr|cmd/agentvcr) ([a-z]+)").FindAllStringSubmatch(docs(t), -1) {
		named[m[1]] = true
	}
	for sub := range named {
		if _, ok := commandFlags(sub); !ok {
			t.Errorf("README names `agentvcr %s`, which is not a command", sub)
		}
	}
	for _, sub := range commands() {
		if !strings.Contains(text, "| `agentvcr "+sub) {
			t.Errorf("agentvcr %s is missing from the README's command table", sub)
		}
	}
}

// TestREADMEFlags: every flag the README and docs/ show in code (`-name
// ...`) is a flag of an agentvcr command or of go test in this repository.
func TestREADMEFlags(t *testing.T) {
	known := map[string]bool{"h": true, "update": true, "record": true, "run": true, "race": true, "diff": true} // -h, go test and go mod tidy flags
	for _, sub := range commands() {
		flags, _ := commandFlags(sub)
		for _, f := range flags {
			known[f] = true
		}
	}
	code := regexp.MustCompile("`[^`\n]*`|(?s)```.*?```")
	flag := regexp.MustCompile("(?:^|[\\s(`])-([a-z][a-z-]*)\\b")
	legend := regexp.MustCompile(`^.-[a-z]+ \+[a-z]+.$`) // a diff's legend, "-recorded +sent"
	for _, span := range code.FindAllString(docs(t), -1) {
		if legend.MatchString(span) {
			continue
		}
		for _, m := range flag.FindAllStringSubmatch(span, -1) {
			if !known[m[1]] {
				t.Errorf("README shows the flag -%s (in %q), which no command has", m[1], span)
			}
		}
	}
}

// TestREADMEVariables: every environment variable the README and docs/
// name is read by the code.
func TestREADMEVariables(t *testing.T) {
	var src strings.Builder
	for _, f := range repoFiles(t) {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src.Write(b)
		}
	}
	seen := map[string]bool{}
	for _, v := range regexp.MustCompile(`\b(?:OPENAI|AGENTVCR)_[A-Z_]+\b|\bNO_COLOR\b|\bINJECT\b`).FindAllString(docs(t), -1) {
		if seen[v] {
			continue
		}
		seen[v] = true
		if !strings.Contains(src.String(), `"`+v+`"`) {
			t.Errorf("README names the variable %s, which no code reads", v)
		}
	}
	if len(seen) < 4 {
		t.Errorf("README names %d variables, want the gateway's, the model's, the key's and the locale's", len(seen))
	}
}

// TestREADMEPaths: every repository path the README and docs/ show in code
// exists (a pattern matches at least one file).
func TestREADMEPaths(t *testing.T) {
	top := map[string]bool{}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		top[e.Name()] = true
	}
	text := docs(t)
	var paths []string
	for _, m := range regexp.MustCompile("`([a-z_.]+/[^` ]*)`").FindAllStringSubmatch(text, -1) {
		paths = append(paths, m[1])
	}
	_, layout, _ := strings.Cut(text, "## Layout\n\n```\n")
	layout, _, _ = strings.Cut(layout, "```")
	for _, line := range strings.Split(layout, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			paths = append(paths, f[0])
		}
	}
	if len(paths) < 10 {
		t.Fatalf("found %d paths in the README, the pattern is broken", len(paths))
	}
	for _, p := range paths {
		first, _, _ := strings.Cut(p, "/")
		if !top[first] {
			continue // not a repository path (a URL's tail, for instance)
		}
		matches, err := filepath.Glob(filepath.FromSlash(strings.TrimSuffix(p, "/")))
		if err != nil || len(matches) == 0 {
			t.Errorf("README names %s, which does not exist", p)
		}
	}
}

// TestDocFilesExist: every file a package's doc.go names exists in that
// package.
func TestDocFilesExist(t *testing.T) {
	goFile := regexp.MustCompile(`\b[a-z0-9_]+\.go\b`)
	docs := slices.DeleteFunc(repoFiles(t), func(f string) bool { return filepath.Base(f) != "doc.go" })
	if len(docs) < 5 {
		t.Fatalf("found %d doc.go files", len(docs))
	}
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range goFile.FindAllString(string(b), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(doc), name)); err != nil {
				t.Errorf("%s names %s, which is not in its package", doc, name)
			}
		}
	}
}

// exportedNames returns the exported top-level names of the package in dir,
// and its methods as Type.Method (test files left out, but for
// export_test.go, which exports to the package's external tests).
func exportedNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") && filepath.Base(f) != "export_test.go" {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					if id, ok := recv.(*ast.Ident); ok {
						name = id.Name + "." + name
					}
				}
				names[name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
							names["var "+n.Name] = true // a value's fields are not its methods
						}
					}
				}
			}
		}
	}
	return names
}

// TestDocIdentifiers: every pkg.Name (or pkg.Type.Method) of this module
// that the README or a comment names exists, so a rename cannot leave a
// stale mention behind.
func TestDocIdentifiers(t *testing.T) {
	pkgs := map[string]string{"agent": "agent", "tools": "tools", "harness": "harness", "demo": "demo", "cassettes": "cassettes", "cli": "internal/cli",
		"wire": "wire", "chat": "wire/chat", "messages": "wire/messages", "responses": "wire/responses"}
	exported := map[string]map[string]bool{}
	for name, dir := range pkgs {
		exported[name] = exportedNames(t, dir)
	}
	mention := regexp.MustCompile(`\b(agent|tools|harness|demo|cassettes|cli|wire|chat|messages|responses)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)
	checked := 0
	for _, f := range repoFiles(t) {
		if !strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, ".md") {
			continue
		}
		if strings.HasPrefix(f, "examples/") && strings.HasSuffix(f, ".go") {
			continue // other modules, whose packages may share our names (openai-go's responses)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range mention.FindAllStringSubmatch(line, -1) {
				names, named := exported[m[1]], m[1]+"."+m[2]
				if m[3] != "" {
					named += "." + m[3]
				}
				checked++
				switch {
				case !names[m[2]]:
					t.Errorf("%s:%d names %s.%s, which package %s does not export", f, i+1, m[1], m[2], m[1])
				case m[3] != "" && isCall(line, m[0]) && !names["var "+m[2]] && !names[m[2]+"."+m[3]]:
					t.Errorf("%s:%d calls %s, which is not a method of %s.%s", f, i+1, m[0], m[1], m[2])
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d mentions, the pattern is broken", checked)
	}
}

// isCall reports whether the mention m is followed by a call on line:
// "gateway.Gateway.Start(" names a method, "tools.Result.Content" a field.
func isCall(line, m string) bool {
	_, after, _ := strings.Cut(line, m)
	return strings.HasPrefix(after, "(")
}

// TestOneUpdateFlag: -update is internal/golden's flag alone (examples/ are
// modules of their own); a package that defined its own would rewrite
// goldens its own way, and two in one test binary panic.
func TestOneUpdateFlag(t *testing.T) {
	own := regexp.MustCompile(`flag\.Bool\("update"`)
	for _, f := range repoFiles(t) {
		if !strings.HasSuffix(f, ".go") || strings.HasPrefix(f, "internal/golden/") || strings.HasPrefix(f, "examples/") || f == "conventions_test.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if own.Match(b) {
			t.Errorf("%s defines its own -update flag: use internal/golden (golden.Check, golden.Updating)", f)
		}
	}
}

// TestDocLinks: every relative link of the README and of docs/ leads to a
// file of the repository, and a #fragment to a heading of that page, as
// GitHub makes its anchors (lower case, spaces to hyphens, punctuation
// dropped); a page of docs/ is linked from the README.
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	readmeText := readme(t)
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if page != "README.md" && !strings.Contains(readmeText, "]("+filepath.ToSlash(page)+")") {
			t.Errorf("the README does not link %s", page)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			body, err := os.ReadFile(path)
			if err != nil {
				if fi, serr := os.Stat(path); serr == nil && fi.IsDir() && frag == "" {
					continue
				}
				t.Errorf("%s links %s, which does not exist (%v)", page, target, err)
				continue
			}
			if frag != "" && !slices.Contains(anchors(string(body)), frag) {
				t.Errorf("%s links %s, a heading %s does not have", page, target, path)
			}
		}
	}
}

// anchors are the fragments GitHub gives a Markdown page's headings.
func anchors(page string) []string {
	var out []string
	drop := regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	for _, line := range strings.Split(page, "\n") {
		if h, ok := strings.CutPrefix(line, "#"); ok {
			h = strings.TrimLeft(h, "#")
			out = append(out, strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(strings.TrimSpace(h)), ""), " ", "-"))
		}
	}
	return out
}

// commandLine is a line of a fenced block that runs something: one of our
// commands, a go or npm command, node, or an environment assignment.
var commandLine = regexp.MustCompile(`^(go (run|test|install|build|generate) |agentvcr |/tmp/agentvcr |npm |node |export |[A-Z][A-Z0-9_]*=)`)

// ourCommand is a command line of agentvcr itself, as the docs write it.
var ourCommand = regexp.MustCompile(`^(?:go run \./cmd/agentvcr|agentvcr) (.*)$`)

// TestDocCommands: every command in a fenced block of the README and
// docs/ runs as written, or says it is an example and why ("# example:
// REASON": it needs your agent, a live gateway, a build first...). Our own
// commands run in process, from the repository's root, in a clean
// environment, and must exit 0. The README's first block, the two
// commands, is TestREADMEOpensWithTheTwoCommands's (`go test ./...` is this
// test's own command).
func TestDocCommands(t *testing.T) {
	fence := regexp.MustCompile("(?s)(?:^|\n)```\n(.*?)```")
	ran, marked := 0, 0
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, block := range fence.FindAllStringSubmatch(string(data), -1) {
			if page == "README.md" && i == 0 {
				continue
			}
			for _, line := range strings.Split(block[1], "\n") {
				line = strings.TrimSpace(line)
				if !commandLine.MatchString(line) {
					continue // output, a file's lines, a comment
				}
				cmd, comment, _ := strings.Cut(line, " #")
				cmd, comment = strings.TrimSpace(cmd), strings.TrimSpace(comment)
				if why, ok := strings.CutPrefix(comment, "example:"); ok {
					if strings.TrimSpace(why) == "" {
						t.Errorf("%s: %q is marked an example without saying why", page, line)
					}
					marked++
					continue
				}
				m := ourCommand.FindStringSubmatch(cmd)
				if m == nil {
					t.Errorf("%s: %q does not run here: mark it \"# example: REASON\"", page, line)
					continue
				}
				args, err := shellWords(m[1])
				if err != nil {
					t.Errorf("%s: %q: %v", page, line, err)
					continue
				}
				code, _, stderr := cli.Capture(cli.Env{Dir: ".", Getenv: func(string) string { return "" }}, args...)
				if code != 0 {
					t.Errorf("%s: %q exits %d: %s (or mark it \"# example: REASON\")", page, line, code, stderr)
				}
				ran++
			}
		}
	}
	if ran < 5 || marked < 5 {
		t.Errorf("ran %d commands and found %d examples: the blocks were not read", ran, marked)
	}
}

// shellWords splits a command line as a POSIX shell does words, for the
// quoting the docs use: single quotes keep everything, double quotes
// everything but \" and \\.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
				i++
				w.WriteByte(s[i])
			default:
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case strings.IndexByte("|&;<>$`*?", c) >= 0:
			return nil, fmt.Errorf("%q is shell syntax this test does not run: mark the line an example", c)
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("an unclosed %c quote", quote)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}
