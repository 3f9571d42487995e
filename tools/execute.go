package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// rawQuoteChars is how much of unparsable arguments is quoted back.
const rawQuoteChars = 80

// Execute runs one call and always returns a result: an unknown tool,
// arguments that are not JSON or break the schema, a tool error and a tool
// panic all become failure results (IsError) whose text says what to fix.
// Every result, failures included, goes through Truncate. Execute never
// panics and never returns an error.
func (r *Registry) Execute(ctx context.Context, c Call) Result {
	content, failed := r.execute(ctx, c)
	content = strings.ToValidUTF8(content, "\uFFFD")
	if failed {
		content = r.scrub(content)
	}
	out, meta := Truncate(content, r.lang)
	return Result{Content: out, IsError: failed, Meta: meta}
}

func (r *Registry) execute(ctx context.Context, c Call) (string, bool) {
	t := r.lang.texts()
	e, ok := r.tools[c.Name]
	if !ok {
		if len(r.tools) == 0 {
			return fmt.Sprintf(t.noToolsF, c.Name), true
		}
		return fmt.Sprintf(t.unknownToolF, c.Name, strings.Join(r.Names(), t.toolList)), true
	}
	fail := func(msg string) (string, bool) { return fmt.Sprintf(t.failureF, c.Name, msg), true }

	raw := strings.TrimSpace(c.Arguments)
	if raw == "" {
		raw = "{}"
	}
	var args map[string]json.RawMessage
	err := json.Unmarshal([]byte(raw), &args)
	var typeErr *json.UnmarshalTypeError
	if err == nil && args == nil || errors.As(err, &typeErr) {
		return fail(t.render([]problem{{kind: notObject, want: jsonType(json.RawMessage(raw))}}, nil))
	}
	if err != nil {
		return fail(fmt.Sprintf(t.badJSONF, jsonMessage(err), shorten(raw, rawQuoteChars)))
	}
	if probs := e.schema.check(args); len(probs) > 0 {
		return fail(t.render(probs, e.schema.names))
	}
	out, err := r.run(ctx, e.tool, json.RawMessage(raw))
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return fail(t.canceled)
		}
		var p panicError
		if errors.As(err, &p) {
			return fail(fmt.Sprintf(t.panicF, p.value))
		}
		return fail(err.Error())
	}
	return out, false
}

// run calls the tool and turns a panic into an error: the one recover.
func (r *Registry) run(ctx context.Context, tool Tool, args json.RawMessage) (out string, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = "", panicError{value: v}
		}
	}()
	return tool.Run(ctx, r.ws, args)
}

type panicError struct{ value any }

func (p panicError) Error() string { return fmt.Sprint("panic: ", p.value) }

// scrub removes the workspace's absolute path from failure text, a safety net
// for tool errors that carry host paths.
func (r *Registry) scrub(s string) string {
	if r.ws == nil {
		return s
	}
	root := r.ws.Root()
	s = strings.ReplaceAll(s, root+string(filepath.Separator), "")
	return strings.ReplaceAll(s, root, ".")
}

// jsonMessage is the parser's message without Go's "json: " prefix.
func jsonMessage(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s, byte %d", syn.Error(), syn.Offset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// shorten keeps the first max runes of s, adding "…" when it cut.
func shorten(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return s[:byteOffset(s, max)] + "…"
}

// render turns problems into one failure text.
func (t *catalog) render(probs []problem, allowedNames []string) string {
	var parts, missingNames, unknownNames []string
	for _, p := range probs {
		switch p.kind {
		case notObject:
			parts = append(parts, fmt.Sprintf(t.notObjectF, t.typeNames[p.want]))
		case missing:
			missingNames = append(missingNames, p.param)
		case wrongType:
			parts = append(parts, fmt.Sprintf(t.wrongTypeF, p.param, t.typeNames[p.want], p.got))
		case tooSmall:
			parts = append(parts, fmt.Sprintf(t.tooSmallF, p.param, p.want, p.got))
		case tooLarge:
			parts = append(parts, fmt.Sprintf(t.tooLargeF, p.param, p.want, p.got))
		case tooShort:
			parts = append(parts, fmt.Sprintf(t.tooShortF, p.param, p.want, p.got))
		case unknownParam:
			unknownNames = append(unknownNames, p.param)
		}
	}
	switch len(missingNames) {
	case 0:
	case 1:
		parts = append([]string{fmt.Sprintf(t.missingF, missingNames[0])}, parts...)
	default:
		parts = append([]string{fmt.Sprintf(t.missingManyF, strings.Join(missingNames, t.nameSep))}, parts...)
	}
	if len(unknownNames) > 0 {
		allowed := t.noneAllowed
		if len(allowedNames) > 0 {
			allowed = strings.Join(allowedNames, t.nameSep)
		}
		f := t.unknownF
		if len(unknownNames) > 1 {
			f = t.unknownManyF
		}
		parts = append(parts, fmt.Sprintf(f, strings.Join(unknownNames, t.nameSep), allowed))
	}
	return fmt.Sprintf(t.badArgsF, strings.Join(parts, t.problemSep))
}
