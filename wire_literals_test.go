package agentvcr_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"
)

// formatLiteral matches what only a wire format's package may say in code:
// an endpoint path or a provider's environment variable.
var formatLiteral = regexp.MustCompile(`/chat/completions|/v1/messages|/responses\b|\bOPENAI_|\bANTHROPIC_`)

// TestFormatLiteralsStayInTheirPackage: no string literal outside wire/<format>
// names a format's path or environment variable, so every layer dispatches
// through package wire and a new format is one package and one line in
// wire.All. Comments, doc.go files and tests may name them (they document
// and check behaviour); the example agents are other people's code.
func TestFormatLiteralsStayInTheirPackage(t *testing.T) {
	checked := 0
	for _, f := range repoFiles(t) {
		switch {
		case !strings.HasSuffix(f, ".go"), strings.HasSuffix(f, "_test.go"), strings.HasSuffix(f, "/doc.go"),
			strings.HasPrefix(f, "examples/"), regexp.MustCompile(`^wire/[a-z]+/`).MatchString(f) && !strings.HasPrefix(f, "wire/internal/"):
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false // a package path is not a format's path
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				checked++
				if m := formatLiteral.FindString(n.Value); m != "" {
					t.Errorf("%s: a string literal names %s: take it from the format (package wire)", fset.Position(n.Pos()), m)
				}
			}
			return true
		})
	}
	if checked < 1000 {
		t.Fatalf("checked %d string literals: the walk missed the code", checked)
	}
}
