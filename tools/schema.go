package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// ErrUnsupportedSchema is returned by Register for a parameter schema that
// uses a keyword the validator does not check: whatever is sent to the model
// is also enforced.
var ErrUnsupportedSchema = errors.New("unsupported parameter schema")

// schema is the subset of JSON Schema the tools use: an object with typed
// properties, required names, additionalProperties false, integer and number
// bounds and a minimum string length.
type schema struct {
	props    map[string]propSchema
	names    []string // property names, sorted
	required []string
	closed   bool // additionalProperties: false
}

type propSchema struct {
	Type        string       `json:"type"`
	Description string       `json:"description"`
	Minimum     *json.Number `json:"minimum"`
	Maximum     *json.Number `json:"maximum"`
	MinLength   *int         `json:"minLength"`
}

var jsonTypes = []string{"string", "integer", "number", "boolean", "object", "array"}

// compileSchema parses a tool's parameter schema and refuses any keyword
// outside the subset.
func compileSchema(raw json.RawMessage) (*schema, error) {
	var top struct {
		Type                 string                     `json:"type"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required"`
		AdditionalProperties *bool                      `json:"additionalProperties"`
	}
	if err := strictDecode(raw, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupportedSchema, err)
	}
	if top.Type != "object" {
		return nil, fmt.Errorf("%w: type %q, want \"object\"", ErrUnsupportedSchema, top.Type)
	}
	s := &schema{props: map[string]propSchema{}, required: top.Required}
	s.closed = top.AdditionalProperties != nil && !*top.AdditionalProperties
	for name, praw := range top.Properties {
		var p propSchema
		if err := strictDecode(praw, &p); err != nil {
			return nil, fmt.Errorf("%w: property %s: %w", ErrUnsupportedSchema, name, err)
		}
		if !slices.Contains(jsonTypes, p.Type) {
			return nil, fmt.Errorf("%w: property %s: type %q", ErrUnsupportedSchema, name, p.Type)
		}
		s.props[name] = p
		s.names = append(s.names, name)
	}
	slices.Sort(s.names)
	for _, name := range s.required {
		if _, ok := s.props[name]; !ok {
			return nil, fmt.Errorf("%w: required %s is not a property", ErrUnsupportedSchema, name)
		}
	}
	return s, nil
}

func strictDecode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// problem is one way the arguments break the schema. The locale renders it.
type problem struct {
	kind  problemKind
	param string
	want  string // a JSON type name or a bound
	got   string // the value as sent, shortened
}

type problemKind int

const (
	notObject problemKind = iota
	missing
	wrongType
	tooSmall
	tooLarge
	tooShort
	unknownParam
)

// check validates decoded arguments. Problems come in a fixed order: missing
// required parameters, then each sent parameter by name, unknown ones last.
func (s *schema) check(args map[string]json.RawMessage) []problem {
	var out, unknown []problem
	for _, name := range s.required {
		if _, ok := args[name]; !ok {
			out = append(out, problem{kind: missing, param: name})
		}
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p, ok := s.props[k]
		if !ok {
			if s.closed {
				unknown = append(unknown, problem{kind: unknownParam, param: k})
			}
			continue
		}
		if pr, bad := p.check(k, args[k]); bad {
			out = append(out, pr)
		}
	}
	return append(out, unknown...)
}

func (p propSchema) check(name string, raw json.RawMessage) (problem, bool) {
	got := shorten(string(raw), 40)
	typ := jsonType(raw)
	ok := typ == p.Type || (p.Type == "number" && typ == "integer")
	if !ok {
		return problem{kind: wrongType, param: name, want: p.Type, got: got}, true
	}
	switch p.Type {
	case "integer", "number":
		if typ == "integer" && p.Type == "integer" {
			// Go code reads it into an int: one that does not fit is out
			// of bounds, not a decoding error.
			if _, err := strconv.ParseInt(string(raw), 10, strconv.IntSize); err != nil {
				if bytes.HasPrefix(raw, []byte("-")) {
					return problem{kind: tooSmall, param: name, want: strconv.Itoa(math.MinInt), got: got}, true
				}
				return problem{kind: tooLarge, param: name, want: strconv.Itoa(math.MaxInt), got: got}, true
			}
		}
		v, _ := strconv.ParseFloat(string(raw), 64)
		if p.Minimum != nil {
			if lim, _ := p.Minimum.Float64(); v < lim {
				return problem{kind: tooSmall, param: name, want: p.Minimum.String(), got: got}, true
			}
		}
		if p.Maximum != nil {
			if lim, _ := p.Maximum.Float64(); v > lim {
				return problem{kind: tooLarge, param: name, want: p.Maximum.String(), got: got}, true
			}
		}
	case "string":
		var str string
		_ = json.Unmarshal(raw, &str)
		if p.MinLength != nil && len([]rune(str)) < *p.MinLength {
			return problem{kind: tooShort, param: name, want: strconv.Itoa(*p.MinLength), got: got}, true
		}
	}
	return problem{}, false
}

// jsonType names the JSON type of a valid JSON value; a number without a
// fraction or exponent is an "integer".
func jsonType(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "null"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(raw, ".eE") {
		return "number"
	}
	return "integer"
}
