package conformtest

import (
	"bufio"
	"bytes"
	"os"
	"strings"

	"github.com/agentvcr/agentvcr/harness/conform"
)

// baseline maps each case id a baseline file lists to its reason.
type baseline map[string]string

// readBaseline reads a baseline file as conform's -baseline does
// (conform.ReadBaseline: the same errors), and keeps each entry's reason:
// the comment after the id on its line, else the comment lines right
// above it, else "no reason given".
func readBaseline(path string, known []conform.Case) (baseline, error) {
	if _, err := conform.ReadBaseline(path, known); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b := baseline{}
	var above []string // the comment lines since the last entry or blank line
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		id, comment, _ := strings.Cut(sc.Text(), "#")
		id, comment = strings.TrimSpace(id), strings.TrimSpace(comment)
		switch {
		case id == "" && comment != "":
			above = append(above, comment)
			continue
		case id == "":
			above = nil
			continue
		}
		reason := comment
		if reason == "" {
			reason = strings.Join(above, " ")
		}
		if reason == "" {
			reason = "no reason given"
		}
		b[id] = reason
		above = nil
	}
	return b, sc.Err()
}
