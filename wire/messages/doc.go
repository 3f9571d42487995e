// Package messages is the Anthropic Messages wire format (Format): POST
// {base}/v1/messages with x-api-key and anthropic-version headers, the
// request body, the stream merger, and the rules the API enforces with a 400
// (Check, and Decode for a request a server receives).
//
// # Requests and streams
//
// The request is Body (system messages become "system"; an
// assistant message becomes thinking, text, then tool_use blocks; tool
// messages become tool_result blocks at the head of the next user message).
// The stream is read with the same SSE rules; the event type is the data's
// "type" (the event: line may be absent). Blocks are kept by their index
// and drained in index order (index.go): a start at an index whose block has
// stopped opens a new block, which sorts after every block started before it
// (servers that send every tool_use at index 0; the API repeating a stopped
// index, whose deltas then name the next index: the latest reused block,
// still open, takes a delta for an index that never started); a start at an
// index whose block is still open is an error. A second content_block_stop
// changes nothing. The blocks a message_start carries in message.content are
// whole blocks at their positions, and its stop_reason counts. Text blocks
// join the turn's text,
// thinking and redacted_thinking blocks become agent.Turn.Thinking, tool_use blocks
// the calls; server_tool_use and other blocks are not the agent's and are
// dropped. A tool_use's arguments are its input_json_delta pieces joined when
// at least one delta came (the start's "input" is a {} placeholder or a copy,
// never a prefix); otherwise the start's input when it is a non-empty object;
// otherwise "{}"; an id-less tool_use is toolu_<index> (toolu_<index>_<n>
// when it reused an index). ping and unknown event and delta types change
// nothing; events before message_start merge as usual; a repeated
// message_start with the same id is ignored, one with another id is
// ErrSecondMessage. The first non-empty stop_reason is FinishReason; usage
// members present later replace earlier ones (input counts cache reads and
// writes). An error event (or data whose type is "error") is a *agent.StreamError;
// a stream with neither a stop_reason nor message_stop is agent.ErrTruncatedStream.
// stop_reason "max_tokens" after a tool_use whose input is not valid JSON is
// an *agent.OutputLimitError (agent.ErrOutputLimit): the limit cut the call,
// which must not run.
// The format's Check adds to agent.CheckMessages the rule the API enforces with a
// 400: nothing follows a tool_use in its message, and the next user message
// starts with one tool_result per tool_use (Decode applies it
// to a request body a server receives).
package messages
