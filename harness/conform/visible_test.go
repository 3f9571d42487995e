package conform

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Control characters from an agent (its stderr quoted in the details, the
// tool names it offers) reach the table escaped, as the cards show them.
func TestTableEscapesControlCharacters(t *testing.T) {
	only, _ := SelectCases(Cases(), []string{"clean"})
	results, err := Run(context.Background(), Options{Folder: agentFolder, Command: hostileCommand(t, hostileEscapes, t.TempDir()), Cases: only, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got := table(results)
	want := `the agent exited with code 1 without sending a request to the case's URL (stderr: starting | \x1b]0;pwned\x07\x1b[31mred\x1b[0m and a bell\x07)`
	if !strings.Contains(got, want) {
		t.Errorf("the table:\n%s\nwant a row with %s", got, want)
	}
	results[0].Details = "tools \"a\rb\", \"c\nd\", \u009b2J, \u202eevil, \xff"
	got = table(results)
	want = `tools "a\rb", "c\nd", \u009b2J, \u202eevil, \xff`
	if !strings.Contains(got, want) {
		t.Errorf("the table:\n%s\nwant a row with %s", got, want)
	}
	for i, c := range []byte(got) {
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("byte %d of the table is %#x", i, c)
		}
	}
}
