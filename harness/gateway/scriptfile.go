package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrBadScript marks a script file ReadScriptFile cannot serve; the error
// says the file, the line and the problem.
var ErrBadScript = errors.New("bad script")

// ReadScriptFile reads a script file: YAML whose fields are Script's and
// ScriptTurn's own (their yaml names), one conversation a file:
//
//	name: probe          # the model a request names; default: the file's name
//	format: chat         # optional: serve it in this format only
//	quirk: ids_dropped   # optional: served under it on /s/NAME/v1
//	turns:
//	  - text: Let me look.
//	    calls:
//	      - name: glob
//	        arguments: '{"pattern":"**/*.js"}'
//	  - user_contains: thanks   # answers that last user message, wherever it stands
//	    text: You are welcome.
//	  - text: Done.
//	  - status: 429            # an HTTP error instead of a stream
//
// known names the formats and quirks a file may name (their own checks
// live in other packages): formats is the -api names, quirkOK says whether
// a quirk name (or composition) is one. Every problem is one line,
// "FILE:LINE: problem", wrapping ErrBadScript: a field the schema does
// not have, a turn with calls and a status, a status that is not an error
// (400 to 599), a regular expression that does not compile, an unknown
// format or quirk, a call with no name, no turns.
func ReadScriptFile(path string, data []byte, formats []string, quirkOK func(string) error) (Script, error) {
	bad := func(line int, format string, a ...any) (Script, error) {
		return Script{}, fmt.Errorf("%w: %s:%d: %s", ErrBadScript, path, line, fmt.Sprintf(format, a...))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlLine(err)
		return bad(line, "%s", msg)
	}
	if len(doc.Content) == 0 {
		return bad(1, "the file is empty: a script has turns")
	}
	if root := doc.Content[0]; root.Kind != yaml.MappingNode {
		return bad(root.Line, "not a script: a script is a mapping of name, format, quirk and turns")
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Script
	if err := dec.Decode(&s); err != nil && err != io.EOF {
		line, msg := yamlLine(err)
		return bad(line, "%s", msg)
	}
	root := doc.Content[0]
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if s.Format != "" && !slices.Contains(formats, s.Format) {
		return bad(valueLine(root, "format"), "format %q: the formats are %s", s.Format, strings.Join(formats, ", "))
	}
	if s.Quirk != "" && quirkOK != nil {
		if err := quirkOK(s.Quirk); err != nil {
			return bad(valueLine(root, "quirk"), "quirk: %v", err)
		}
	}
	turns := valueNode(root, "turns")
	if len(s.Turns) == 0 || turns == nil {
		return bad(valueLine(root, "turns"), "no turns: a script has at least one")
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		t.line = turns.Content[i].Line
		switch {
		case t.Status != 0 && (len(t.Calls) > 0 || t.Text != "" || t.Reasoning != ""):
			return bad(t.line, "turn %d has a status (%d) and a stream (text, reasoning or calls): a turn answers with one", i+1, t.Status)
		case t.Status != 0 && (t.Status < 400 || t.Status > 599):
			return bad(t.line, "turn %d: status %d is not an error status (400 to 599)", i+1, t.Status)
		}
		if t.UserMatches != "" {
			re, err := regexp.Compile(t.UserMatches)
			if err != nil {
				return bad(valueLine(turns.Content[i], "user_matches"), "turn %d: user_matches %q does not compile: %v", i+1, t.UserMatches, err)
			}
			t.re = re
		}
		for j, c := range t.Calls {
			if c.Name == "" {
				return bad(t.line, "turn %d, call %d has no name", i+1, j+1)
			}
		}
	}
	return s, nil
}

// StatusText is the message of a scripted turn's error status.
func StatusText(status int) string {
	return fmt.Sprintf("scripted error: %d %s", status, http.StatusText(status))
}

// yamlLine reads the line out of a yaml error ("yaml: line 3: ..."; a
// decode error lists "line 3: ..." per problem), 1 when it names none.
func yamlLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	if first, _, ok := strings.Cut(msg, "\n"); ok {
		msg = first
	}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(n); err == nil {
				return line, unknownField(after)
			}
		}
	}
	return 1, msg
}

// valueNode is the value of key in a mapping node, nil when it has none.
func valueNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// valueLine is the line of key's value in m, else m's own.
func valueLine(m *yaml.Node, key string) int {
	if v := valueNode(m, key); v != nil {
		return v.Line
	}
	return m.Line
}

// fieldsOf are the fields a script file's objects have, for the error of
// one it does not.
var fieldsOf = map[string]string{
	"Script":     "name, format, quirk, turns",
	"ScriptTurn": "user_contains, user_matches, reasoning, text, calls, finish_reason, status",
	"ScriptCall": "name, arguments, thought_signature",
}

// unknownField rewrites yaml's "field X not found in type gateway.T" as
// the schema says it.
func unknownField(msg string) string {
	field, typ, ok := strings.Cut(strings.TrimPrefix(msg, "field "), " not found in type gateway.")
	if !ok || !strings.HasPrefix(msg, "field ") {
		return msg
	}
	what := map[string]string{"Script": "a script", "ScriptTurn": "a turn", "ScriptCall": "a call"}[typ]
	return fmt.Sprintf("unknown field %s: %s has %s", field, what, fieldsOf[typ])
}
