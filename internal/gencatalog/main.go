// Command gencatalog writes the quirk catalog as data into the current
// folder (go generate ./catalog runs it there): each case's stream and its
// expected merge, built on the turn conform's probe plays for agentvcr's
// own tools; chat completions at the root, Anthropic Messages in messages/
// and the OpenAI Responses API in responses/. With -page FILE it writes
// the catalog's Markdown page there too (docs/cases.md).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentvcr/agentvcr/harness/conform"
)

func main() {
	page := flag.String("page", "", "also write the catalog's Markdown page to `FILE`")
	flag.Parse()
	files, err := conform.CatalogFiles(conform.AgentvcrTools())
	if err == nil && *page != "" {
		files[*page] = conform.CatalogPage()
	}
	if err == nil {
		for name, data := range files {
			if err = os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				break
			}
			if err = os.WriteFile(name, data, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}
