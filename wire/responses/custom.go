package responses

// Custom tools (GPT-5's freeform tools, how Codex declares apply_patch): the
// model calls one with a custom_tool_call item whose "input" is plain text,
// streamed by response.custom_tool_call_input.delta and confirmed by
// response.custom_tool_call_input.done. The merger makes it an agent.ToolCall
// of Type "custom" whose Arguments are that text as it came; Body sends it
// back as a custom_tool_call item and its result as custom_tool_call_output.

// callText is the text a whole item carries for its call: a custom call's
// input (a string), else the arguments (a string, or an object compacted),
// in the merger's scratch buffer (valid until the next text).
func (m *respMerger) callText(j *respItemJSON) []byte {
	if kindOf(j.Type) == kindCustomCall {
		text, isString := m.text(j.Input)
		if !isString {
			return nil
		}
		return text
	}
	text, _ := m.text(j.Arguments)
	return text
}
