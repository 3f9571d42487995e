package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoReadOnlyTool is returned when the probe cannot tell which of the
// agent's tools only read, so it calls none.
var ErrNoReadOnlyTool = errors.New("no tool conform can tell is read-only")

// ErrUnknownCall is returned when -call names a tool the agent does not offer.
var ErrUnknownCall = errors.New("the agent offers no such tool")

// A CallSpec is one -call flag: a tool to call, with its arguments when
// given (else they are generated from the tool's schema).
type CallSpec struct {
	Name string
	Args string // JSON object text; "" to generate
}

// ParseCallSpec reads NAME or NAME=ARGS_JSON.
func ParseCallSpec(s string) (CallSpec, error) {
	name, args, hasArgs := strings.Cut(s, "=")
	if name == "" {
		return CallSpec{}, fmt.Errorf("-call %q: want NAME or NAME=ARGS_JSON", s)
	}
	if hasArgs {
		var obj map[string]any
		if err := json.Unmarshal([]byte(args), &obj); err != nil {
			return CallSpec{}, fmt.Errorf("-call %s: the arguments are not a JSON object: %w", name, err)
		}
	}
	return CallSpec{Name: name, Args: args}, nil
}

// probeText is what the probe's model says before its calls and as its
// conclusion.
const (
	probeText       = "Let me look at two things at once."
	probeConclusion = "Both calls answered: done."
)

// ProbeCalls picks the calls of the probe's tool turn from the tools an
// agent offers: the tools named by specs, else those pickTools picks (tools
// whose names say they read, that take a pattern or a path). One tool is
// called twice. Arguments not given are generated from the tool's schema:
// required members only (a schema that requires none gets one member
// anyway, optionalArguments); a path is a file or the folder itself from dir,
// the folder the agent runs in (absolute when the parameter's description
// says so; dir "" gives none), so that path-safety rules let the call run; every other
// string, a pattern first of all, carries a quote, a backslash and CJK text
// (raw in the first call, \u-escaped in the second), so that split escapes
// are exercised. The ids are left empty.
func ProbeCalls(tools []Tool, specs []CallSpec, dir string) ([]Call, error) {
	byName := map[string]Tool{}
	var names []string
	for _, t := range tools {
		byName[t.Name] = t
		names = append(names, t.Name)
	}
	var picked []CallSpec
	if len(specs) > 0 {
		for _, s := range specs {
			if _, ok := byName[s.Name]; !ok {
				return nil, fmt.Errorf("%w: -call %s, but the agent offers %s", ErrUnknownCall, s.Name, offered(names))
			}
		}
		picked = specs
	} else {
		picked = pickTools(tools)
		if len(picked) == 0 {
			return nil, fmt.Errorf("%w: the agent offers %s, and no name says it only reads (%s) without a word that says it acts (write, edit, run, shell, web, fetch, agent, tool, ...): name the tools conform may call with -call NAME[=ARGS_JSON]",
				ErrNoReadOnlyTool, offered(names), strings.Join(readWords, ", "))
		}
	}
	if len(picked) == 1 {
		picked = append(picked, picked[0])
	}
	paths := folderPaths(dir)
	calls := make([]Call, len(picked))
	for i, s := range picked {
		args := s.Args
		if args == "" {
			var err error
			if args, err = toolArguments(byName[s.Name], i%2, paths); err != nil {
				return nil, fmt.Errorf("tool %s: %w", s.Name, err)
			}
			if args == "{}" {
				args = optionalArguments(byName[s.Name], i%2, paths)
			}
		}
		calls[i] = Call{Name: s.Name, Arguments: args}
	}
	return calls, nil
}

func offered(names []string) string {
	if len(names) == 0 {
		return "no tools in its first request"
	}
	return "the tools " + strings.Join(names, ", ")
}

// Probe strings: a quote, a backslash and CJK text in each.
var probeStrings = [2]string{`probe "q" \ 中文`, `probe "r" \ 数据`}

// GenerateArguments builds a JSON object for a parameter schema: its
// required members in the order listed, each the first enum or const value,
// else a value of its type (a probe string, 1, true, one-element arrays,
// nested required members). escaped writes non-ASCII text as \uXXXX.
func GenerateArguments(schema json.RawMessage, escaped bool) (string, error) {
	variant := 0
	if escaped {
		variant = 1
	}
	return toolArguments(Tool{Schema: schema}, variant, probePaths{})
}

// toolArguments is GenerateArguments for one of a tool's calls: a
// required string that is a path (paramRole), at the top or nested in an
// object or an array ("files": [{"path": ...}], "paths": [...]), is one of
// paths.
func toolArguments(t Tool, variant int, paths probePaths) (string, error) {
	var s map[string]any
	if len(t.Schema) > 0 {
		if err := json.Unmarshal(t.Schema, &s); err != nil {
			return "", fmt.Errorf("parameter schema: %w", err)
		}
	}
	var b strings.Builder
	writeObject(&b, s, variant, 0, "", func(parent, name string, sub map[string]any) (string, bool) {
		p, ok := paths.value(nestedRole(t.Name, parent, name), sub)
		if !ok {
			return "", false
		}
		var v strings.Builder
		writeString(&v, p, variant)
		return v.String(), true
	})
	return b.String(), nil
}

// A memberValue gives the JSON text of a member named name of the object
// or array member parent ("" at the top) whose schema is sub, in place of a
// generated one; ok is false to generate it.
type memberValue func(parent, name string, sub map[string]any) (json string, ok bool)

// writeObject writes the required members of an object schema, the object
// being the member parent ("" at the top); member, when not nil, gives a
// member's value in place of a generated one, at any depth.
func writeObject(b *strings.Builder, s map[string]any, variant, depth int, parent string, member memberValue) {
	props, _ := s["properties"].(map[string]any)
	required, _ := s["required"].([]any)
	b.WriteByte('{')
	n := 0
	for _, r := range required {
		name, ok := r.(string)
		if !ok {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		writeString(b, name, variant)
		b.WriteByte(':')
		sub, _ := props[name].(map[string]any)
		if member != nil {
			if v, ok := member(parent, name, sub); ok {
				b.WriteString(v)
				continue
			}
		}
		writeValue(b, sub, variant, depth, name, member)
	}
	b.WriteByte('}')
}

// writeValue writes a value of schema s, the value of the member name;
// member gives values inside it (writeObject).
func writeValue(b *strings.Builder, s map[string]any, variant, depth int, name string, member memberValue) {
	if v, ok := s["const"]; ok {
		writeJSON(b, v, variant)
		return
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		writeJSON(b, e[0], variant)
		return
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[key].([]any); ok && len(alts) > 0 {
			if first, ok := alts[0].(map[string]any); ok {
				writeValue(b, first, variant, depth+1, name, member)
				return
			}
		}
	}
	switch schemaType(s) {
	case "object":
		if depth > 8 {
			b.WriteString("{}")
			return
		}
		writeObject(b, s, variant, depth+1, name, member)
	case "array":
		items, _ := s["items"].(map[string]any)
		b.WriteByte('[')
		if depth <= 8 {
			// an element is the member itself, once more: "paths": ["README.md"]
			if v, ok := arrayElement(items, name, member); ok {
				b.WriteString(v)
			} else {
				writeValue(b, items, variant, depth+1, name, member)
			}
		}
		b.WriteByte(']')
	case "integer", "number":
		n := 1.0
		if min, ok := s["minimum"].(float64); ok && min > n {
			n = min
		}
		if max, ok := s["maximum"].(float64); ok && max < n {
			n = max
		}
		writeJSON(b, n, variant)
	case "boolean":
		b.WriteString("true")
	case "null":
		b.WriteString("null")
	default:
		writeString(b, probeStrings[variant], variant)
	}
}

// arrayElement is member's value for an element of the array member name,
// read as a member of that name at the top ("paths": ["README.md"]).
func arrayElement(items map[string]any, name string, member memberValue) (string, bool) {
	if member == nil || schemaType(items) != "string" {
		return "", false
	}
	return member("", name, items)
}

// schemaType is the schema's type, the first non-null one of a list, or
// "object" for a schema with properties.
func schemaType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return strings.ToLower(t) // Gemini's schemas say STRING, INTEGER
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok && name != "null" {
				return strings.ToLower(name)
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return "string"
}

func writeJSON(b *strings.Builder, v any, variant int) {
	if s, ok := v.(string); ok {
		writeString(b, s, variant)
		return
	}
	out, _ := json.Marshal(v) // values decoded from JSON always marshal
	b.Write(out)
}

// writeString writes s as a JSON string: variant 1 escapes every non-ASCII
// character as \uXXXX (surrogate pairs beyond the BMP).
func writeString(b *strings.Builder, s string, variant int) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		case r < 0x80 || variant == 0:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
}
