// Package agent is the core of a read-only coding agent: it speaks a wire
// format with stream: true (chat completions by default), merges the streamed
// answer into one turn, and runs the loop think -> call tools -> observe.
//
// # Wire formats (API)
//
// Each wire format is one *API value built in its own files: the endpoint
// path, the key header, the request body made from the neutral []Message and
// []tools.Definition, the stream merger (io.Reader -> *Turn) and the
// invariants a request in that format must keep. Client.API selects one (nil
// is ChatCompletions); Client and Loop only call through it, so the loop,
// events, tools and truncation never branch on the format. The neutral
// Message is the chat-completions message plus what other formats must echo
// (Thinking); a format's Body converts it and its Merge fills the same Turn.
//
// # Stream rules (MergeStream)
//
// SSE: lines end in CRLF, LF or a bare CR (a CR at the end of a read may be
// half a CRLF); "data:" with or without one space; several data lines join
// with "\n"; ":" comments and unknown fields are ignored; an event is
// dispatched on a blank line and at EOF; a UTF-8 BOM before the first line
// is skipped; one line or one event longer than MaxEventBytes (16 MiB) is
// ErrEventTooLarge; finding line ends is linear in the input. "[DONE]"
// ends the stream; "data: null" is skipped. A stream error is an
// "event: error", a chunk whose "error" member is not null, or a chunk with
// "object":"error" ("error": null is not an error): *StreamError. A stream
// that ends with neither a finish_reason nor [DONE] is ErrTruncatedStream.
// Data that is not a JSON object is an error too. On any error MergeStream
// returns the turn merged so far together with the error.
//
// Chunks: a chunk with empty choices may still carry usage (the last one
// wins, never a sum); the chunk-level id may change; unknown fields are
// ignored (Mistral's "p" padding, Perplexity's accumulated "message", Azure's
// filter results). The first non-empty finish_reason is the turn's.
//
// Choices: while the choice indexes never go down, every choices[] entry is
// merged into one turn, whatever its index (z.ai GLM counts the parts of one
// message in it: reasoning, text, each call, the finish on the last). A
// stream whose choice index goes back down carries several answers (n > 1,
// interleaved): the turn is the first choice's (choice 0 for OpenAI) and the
// other answers are dropped. Several answers sent one after another, never
// going down, cannot be told from one message in parts and are merged.
//
// Content and reasoning (reasoning.go): delta.content is a string or an
// array of typed parts; text parts are the answer, thinking and reasoning
// parts are reasoning, any other part adds nothing, and no part is an error.
// delta.reasoning_content, delta.reasoning and delta.reasoning_details are
// reasoning (the first of them with text in a delta; OpenRouter mirrors one
// into another). Reasoning is kept in Turn.Reasoning, never in Turn.Text;
// the part that came as reasoning_content is Turn.ReasoningContent.
// delta.refusal is answer text. A call's extra_content (Gemini's
// thought_signature) is kept as received in ToolCall.ExtraContent.
//
// # Tool-call identity (the accumulator)
//
// Calls are slots found through maps, never an array keyed by index:
//  1. a piece whose non-empty id is already known belongs to that call,
//     whatever its index;
//  2. else, with an index: the call at that index; a new non-empty id plus a
//     name at an index in use opens a new call when the call there already
//     has an id or another name (Ollama sends every call at index 0);
//  3. else, without an index: a new id, or a name that differs from the
//     latest call's, opens a new call; otherwise the piece continues the
//     latest call (the one the last piece went to);
//  4. id: the first non-empty one wins ("" and "null" are no id; later ids
//     become aliases of the call); name: set once, never clobbered by "" or a
//     repeat; arguments: strings are appended, any other JSON value (an
//     object) is serialized compactly and replaces the text. A piece with no
//     id, no name and no argument text opens nothing;
//  5. at the end the calls are drained sorted by index (ties go to the first
//     seen; a call without an index sorts by its first-seen position), empty
//     arguments become "{}", a missing id becomes call_<index>_<position>
//     (suffixed if a real id has that name). A turn is a tool turn when
//     finish_reason is "tool_calls" or at least one call merged.
//
// Arguments are never parsed here: invalid JSON reaches the tool entry, which
// turns it into a failure result fed back to the model.
//
// # Anthropic Messages (AnthropicMessages, MergeMessagesStream)
//
// The request is MessagesRequestBody (system messages become "system"; an
// assistant message becomes thinking, text, then tool_use blocks; tool
// messages become tool_result blocks at the head of the next user message).
// The stream is read with the same SSE rules; the event type is the data's
// "type" (the event: line may be absent). Blocks are kept in a map by their
// index and drained in index order: text blocks join the turn's text,
// thinking and redacted_thinking blocks become Turn.Thinking, tool_use blocks
// the calls; server_tool_use and other blocks are not the agent's and are
// dropped. A tool_use's arguments are its input_json_delta pieces joined when
// at least one delta came (the start's "input" is a {} placeholder or a copy,
// never a prefix); otherwise the start's input when it is a non-empty object;
// otherwise "{}". ping, content_block_stop and unknown event and delta types
// change nothing; events before message_start merge as usual; a repeated
// message_start with the same id is ignored, one with another id is
// ErrSecondMessage. The first non-empty stop_reason is FinishReason; usage
// members present later replace earlier ones (input counts cache reads and
// writes). An error event (or data whose type is "error") is a *StreamError;
// a stream with neither a stop_reason nor message_stop is ErrTruncatedStream.
// The format's Check adds to CheckMessages the rule the API enforces with a
// 400: nothing follows a tool_use in its message, and the next user message
// starts with one tool_result per tool_use (DecodeMessagesRequest applies it
// to a request body a server receives).
//
// # Responses stream rules (MergeResponsesStream)
//
// The OpenAI Responses stream (Responses: POST {base}/responses) is typed
// events; the merger reads the same SSE and fills the same Turn. Items are
// found through maps, never by array position: by item_id; else a function
// call by call_id; else the latest open item of the same kind (message,
// function_call, reasoning, other) at the same output_index, so that ids
// rotating on every event and an output_item.added keyed by call_id join the
// item already open there, while reasoning and a call sharing one
// output_index stay apart. Content for an item never announced opens it.
// Arguments are function_call_arguments.delta appended; the text of
// function_call_arguments.done and then of output_item.done confirms or
// supplies them and wins, a difference being a warning (Turn.Warnings). Text
// is output_text.delta per content part, confirmed the same way by
// output_text.done, content_part.done and output_item.done. An empty done
// text never wipes streamed text. response.completed's output only fills
// gaps (names, arguments, text, calls never streamed): it never wipes or
// reorders what was streamed. Items come out sorted by output_index
// (first-seen order breaks ties); only function_call items are calls
// (built-in tool items such as web_search_call or shell_call are not); a
// call's id is its call_id. FinishReason is "tool_calls" with calls, else
// "stop", once response.completed arrived. Events are merged in arrival
// order; a sequence_number that does not rise is a warning. Unknown event
// types are ignored; a stream need not begin with response.created.
// Errors, each with the turn merged so far: an error event,
// response.failed and response.incomplete are *StreamError (never text);
// a stream that ends before response.completed matches ErrTruncatedStream;
// a second response.created or another response id is ErrSecondResponse.
// Events after response.completed are ignored with a warning.
//
// # Client and loop
//
// Client.Complete posts the format's body (chat completions:
// {"model","messages","tools","stream":true} in that key order, the same
// bytes for the same input, "tools" left out when empty) to BaseURL with the
// format's path appended to its path (a query such as Azure's ?api-version=
// stays a query); a status outside 2xx is an
// *HTTPError; a 2xx whose body is no event stream (an HTML page, a
// non-streaming JSON answer) is a *NotStreamError quoting its Content-Type
// and first bytes. Endpoint, the URL messages print, carries no userinfo and
// no key-like query value. Usage is advisory: a usage member that is not an
// integer, or a usage that is not an object, is ignored.
//
// LiveTransport is the transport of a live run: a header timeout
// (connecting included) and an idle timeout between stream lines, each a
// *TimeoutError; a body limit (ErrBodyTooLarge, 64 MiB after any gzip);
// retries with backoff for 408, 409, 429, 5xx, header timeouts and
// connection errors, honouring Retry-After(-Ms), only before a response is
// handed on, so no event is ever read twice. What a turn holds is bounded by
// the body limit; one event by MaxEventBytes.
// Loop.Run re-sends the whole conversation on every request and checks
// CheckMessages before each one. Calls run one at a time in merged order,
// each answered by exactly one tool message. A request that fails adds
// nothing to the messages (a partial assistant message is dropped); a
// cancellation while tools run closes the remaining calls with a failure
// result; so the returned messages always pass CheckMessages. The loop ends
// when a turn asks for no call, at MaxTurns (ErrTurnLimit), on an error, or
// on cancellation. Events per turn: a warning for each shape the merger
// worked around (Turn.Warnings), reasoning (when the model sent any), text
// (the model speaks before it acts), then call and result for each call,
// then turn_end.
//
// What the next request echoes: an assistant message keeps each call's
// ExtraContent (Gemini's thought_signature; Gemini answers 400 without it)
// and its reasoning as Thinking blocks; on a turn that made tool calls the
// chat-completions body sends the blocks that came as reasoning_content back
// as reasoning_content (Message.ReasoningContent; DeepSeek's thinking mode
// answers 400 without it). Other reasoning is never sent back in that body.
package agent
