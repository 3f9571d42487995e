package cli

import (
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// formatTable is the usage texts' list of wire formats, one per line: the
// -api name, what it is, the path a request goes to after the base URL, and
// the variables that hold the base URL and the key. It is built from package
// wire, so a new format shows up in every command's help.
func formatTable() string {
	var b strings.Builder
	for _, f := range wire.All() {
		fmt.Fprintf(&b, "  %-10s %s: POST {base}%s\n  %-10s base URL $%s (e.g. %s), key $%s\n",
			f.Name, f.Title, f.Path("MODEL"), "", f.BaseURLEnv, f.ExampleBaseURL, f.KeyEnv)
	}
	b.WriteString(chat.AzureUsage) // a route of the OpenAI formats, on their paths
	return b.String()
}

// apiNames is the -api values joined with sep.
func apiNames(sep string) string { return strings.Join(wire.Names(), sep) }

// baseURLLine is the first stdout line of serve and record: the default
// format's base URL variable set to its base URL on the server at root.
func baseURLLine(root string) string {
	f := wire.Default()
	return f.BaseURLEnv + "=" + wire.BaseURL(f, root)
}
