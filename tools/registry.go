package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
)

// Tool is one tool: what the model sees (Name, Description, Parameters), a
// field for ourselves (ReadOnly, for an approval gate) and the code (Run).
// Run returns the content fed back on success; its error's message is fed back
// as a failure result, so it must be model-facing text.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // JSON Schema of the arguments object
	ReadOnly    bool
	Run         func(ctx context.Context, ws *Workspace, args json.RawMessage) (string, error)
}

// Definition is a tool as sent in a request's "tools" array. It marshals to
// {"type":"function","function":{"name":..,"description":..,"parameters":{..}}}.
type Definition struct {
	Type     string   `json:"type"`
	Function Function `json:"function"`
}

// Function is the "function" member of a Definition.
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Errors returned by Register.
var (
	ErrDuplicateTool = errors.New("duplicate tool name")
	ErrInvalidTool   = errors.New("invalid tool")
)

var toolName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Registry holds the tools offered to the model and runs their calls.
type Registry struct {
	ws    *Workspace
	lang  Lang
	tools map[string]entry
}

type entry struct {
	tool   Tool
	schema *schema
}

// NewRegistry returns an empty registry whose tools run in ws and speak lang.
func NewRegistry(ws *Workspace, lang Lang) *Registry {
	if lang != EN {
		lang = ZH
	}
	return &Registry{ws: ws, lang: lang, tools: map[string]entry{}}
}

// Default returns a registry with the three read-only tools: glob, grep and
// read_file.
func Default(ws *Workspace, lang Lang) *Registry {
	r := NewRegistry(ws, lang)
	for _, t := range []Tool{readFileTool(r.lang), globTool(r.lang), grepTool(r.lang)} {
		if err := r.Register(t); err != nil {
			panic(err) // a bug in this package, caught by its tests
		}
	}
	return r
}

// Register adds a tool. The name must be lower snake case and unused, Run must
// be set, and the schema must stay within what the validator checks.
func (r *Registry) Register(t Tool) error {
	if !toolName.MatchString(t.Name) || t.Run == nil {
		return fmt.Errorf("%w: %q needs a lower snake case name and a Run function", ErrInvalidTool, t.Name)
	}
	if _, ok := r.tools[t.Name]; ok {
		return fmt.Errorf("%w: %s", ErrDuplicateTool, t.Name)
	}
	s, err := compileSchema(t.Parameters)
	if err != nil {
		return fmt.Errorf("tool %s: %w", t.Name, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, t.Parameters); err != nil {
		return fmt.Errorf("tool %s: %w", t.Name, err)
	}
	t.Parameters = compact.Bytes()
	r.tools[t.Name] = entry{tool: t, schema: s}
	return nil
}

// Names returns the registered tool names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.tools))
	for name := range r.tools {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Definitions returns the tools as sent to the model, sorted by name.
func (r *Registry) Definitions() []Definition {
	defs := make([]Definition, 0, len(r.tools))
	for _, name := range r.Names() {
		t := r.tools[name].tool
		defs = append(defs, Definition{Type: "function", Function: Function{
			Name: t.Name, Description: t.Description, Parameters: t.Parameters,
		}})
	}
	return defs
}

// tool returns the registered tool with that name.
func (r *Registry) tool(name string) (Tool, bool) {
	e, ok := r.tools[name]
	return e.tool, ok
}

// Lang returns the locale of the registry's texts.
func (r *Registry) Lang() Lang { return r.lang }
