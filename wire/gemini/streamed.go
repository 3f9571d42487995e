package gemini

import "fmt"

// openCall is a call whose arguments stream as partialArgs: its place in
// the turn, what it was opened with, and the arguments built so far.
type openCall struct {
	i    int    // index in the turn's ToolCalls
	name string // as the opening part named it
	id   string // as streamed ("" when the stream sent none)
	args *argsBuilder
}

// streamed merges a functionCall part of a call whose arguments stream by
// JSON path (Vertex AI's streamFunctionCallArguments): the first part names
// the call (its args, if any, are the arguments so far) and says
// willContinue; the parts after it carry partialArgs, with or without the
// call's name and id repeated; the call ends at a part that does not say
// willContinue (whose last piece does not either) or at an empty
// functionCall ({}). A part that names another call, or the same name with
// another id, ends the open call and opens its own. A part without a name
// and no call open continues the call before it, as a nameless part does
// in every Gemini stream.
func (m *merger) streamed(p part, args string) error {
	fc := p.FunctionCall
	if o := m.open; o != nil {
		if fc.Name == "" && fc.ID == "" && args == "{}" && len(fc.PartialArgs) == 0 && !fc.WillContinue {
			m.closeOpen()
			return nil
		}
		if (fc.Name == "" || fc.Name == o.name) && (fc.ID == "" || fc.ID == o.id) {
			return m.feed(p, args)
		}
		m.note("call " + o.name + " was still streaming its arguments (willContinue) when the next call began; it ended there")
		m.closeOpen()
		return m.call(p) // with no call open, the part is read as any other
	}
	if fc.Name == "" {
		n := len(m.t.ToolCalls)
		if n == 0 {
			return fmt.Errorf("a functionCall part without a name streams arguments (partialArgs) before any call")
		}
		last := &m.t.ToolCalls[n-1]
		b, err := newArgsBuilder(last.Function.Arguments)
		if err != nil {
			return err
		}
		m.open = &openCall{i: n - 1, name: last.Function.Name, id: last.ID, args: b}
		if m.lastStreamed != nil && m.lastStreamed.i == n-1 {
			m.open = m.lastStreamed // the same builder: strings still open keep growing
		}
		return m.feed(p, args)
	}
	b, err := newArgsBuilder("{}")
	if err != nil {
		return err
	}
	m.newCall(p, "{}")
	m.open = &openCall{i: len(m.t.ToolCalls) - 1, name: fc.Name, id: fc.ID, args: b}
	return m.feed(p, args)
}

// feed applies one part to the open call: its args members (laid over
// those built so far), its pieces in order, its thought signature when the
// call has none yet; the call ends unless the part or its last piece says
// willContinue.
func (m *merger) feed(p part, args string) error {
	o := m.open
	fc := p.FunctionCall
	if args != "{}" {
		whole, err := newArgsBuilder(args)
		if err != nil {
			return err
		}
		for _, k := range whole.root.keys {
			*o.args.root.member(k) = *whole.root.vals[k]
		}
	}
	for _, pa := range fc.PartialArgs {
		if err := o.args.add(pa); err != nil {
			return fmt.Errorf("call %s: %w", o.name, err)
		}
	}
	call := &m.t.ToolCalls[o.i]
	if p.ThoughtSignature != "" && len(call.ExtraContent) == 0 {
		call.ExtraContent = WithSignature(p.ThoughtSignature)
	}
	pieceContinues := len(fc.PartialArgs) > 0 && fc.PartialArgs[len(fc.PartialArgs)-1].WillContinue
	if !fc.WillContinue && !pieceContinues {
		m.closeOpen()
	}
	return nil
}

// closeOpen ends the open call: its arguments are what was built.
func (m *merger) closeOpen() {
	o := m.open
	m.t.ToolCalls[o.i].Function.Arguments = o.args.JSON()
	m.lastStreamed, m.open = o, nil
}

// note adds a warning once.
func (m *merger) note(w string) {
	for _, have := range m.t.Warnings {
		if have == w {
			return
		}
	}
	m.t.Warnings = append(m.t.Warnings, w)
}
