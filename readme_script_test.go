package agentvcr_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/wire"
)

// TestReadmeScriptServes keeps the README's complete script true: it reads
// as a script serve would serve.
func TestReadmeScriptServes(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "### In your own tests")
	if !ok {
		t.Fatal(`README.md has no "### In your own tests" section`)
	}
	_, block, ok := strings.Cut(after, "```yaml\n")
	if !ok {
		t.Fatal("the section has no yaml block")
	}
	block, _, _ = strings.Cut(block, "```")
	var formats []string
	for _, f := range wire.All() {
		formats = append(formats, f.Name)
	}
	s, err := gateway.ReadScriptFile("README.md", []byte(block), formats, func(name string) error { _, err := quirk.Lookup(name); return err })
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "probe" || len(s.Turns) != 4 || s.Turns[2].Status != 429 || s.Turns[1].Calls[1].Arguments != `{"path":"src/calc.js"` {
		t.Errorf("the README's script read as %+v", s)
	}
}
