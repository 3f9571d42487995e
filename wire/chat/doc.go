// Package chat is the OpenAI chat-completions wire format (Format): the
// request body every OpenAI-compatible gateway takes, and the merger of its
// streamed answer into one agent.Turn, written for the shapes real gateways
// send rather than the ones the specification promises.
//
// # Stream rules (Merge)
//
// SSE: lines end in CRLF, LF or a bare CR (a CR at the end of a read may be
// half a CRLF); "data:" with or without one space; several data lines join
// with "\n"; ":" comments and unknown fields are ignored; an event is
// dispatched on a blank line and at EOF; a UTF-8 BOM before the first line
// is skipped; one line or one event longer than agent.MaxEventBytes (16 MiB) is
// agent.ErrEventTooLarge; finding line ends is linear in the input. "[DONE]"
// ends the stream; "data: null" is skipped. A stream error is an
// "event: error", a chunk whose "error" member is not null, or a chunk with
// "object":"error" ("error": null is not an error): *agent.StreamError. A stream
// that ends with neither a finish_reason nor [DONE] is agent.ErrTruncatedStream.
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
// into another). Reasoning is kept in agent.Turn.Reasoning, never in Turn.Text;
// the part that came as reasoning_content is agent.Turn.ReasoningContent.
// delta.refusal is answer text. A call's extra_content (Gemini's
// thought_signature) is kept as received in agent.ToolCall.ExtraContent.
//
// # Tool-call identity (the accumulator)
//
// Calls are slots found through maps, never an array keyed by index:
//  1. a piece whose non-empty id is already known belongs to that call,
//     whatever its index;
//  2. else, with an index: the call at that index; a new non-empty id plus a
//     name at an index in use opens a new call when the call there already
//     has an id or another name (Ollama sends every call at index 0);
//  3. else, without an index: a new id, or a name that is not a repeat of
//     the latest call's once that call has argument text, opens a new call;
//     otherwise the piece continues the latest call (the one the last piece
//     went to): a name before any argument is the next piece of the name;
//  4. id: the first non-empty one wins ("" and "null" are no id; later ids
//     become aliases of the call); name: each piece is appended unless it
//     repeats the whole name so far ("read_" then "file" is read_file, the
//     name sent whole on every piece stays one name, "" never clobbers);
//     arguments: strings are appended, any other JSON value (an object) is
//     serialized compactly and replaces the text. A piece with no id, no name
//     and no argument text opens nothing;
//  5. at the end the calls are drained sorted by index (ties go to the first
//     seen; a call without an index sorts by its first-seen position), empty
//     arguments become "{}", a missing id becomes call_<index>_<position>
//     (suffixed if a real id has that name). A turn is a tool turn when
//     finish_reason is "tool_calls" or at least one call merged.
//
// Cumulative arguments (arguments.go): some gateways send in every piece
// all the arguments so far (DeepSeek, Qianfan, MiniMax), or the whole
// arguments again after proper deltas (OpenRouter). The decision is taken at
// the end, by what is valid JSON, never by a prefix test alone (a genuine
// delta may begin with the text so far: `{"a":` then `{"a":1}}`): the
// concatenation when it is valid JSON; else the last piece, when it is valid
// JSON and begins with the piece before it or is the whole text before it;
// else the text as sent. Arguments are not parsed otherwise: invalid JSON
// reaches the tool entry, which turns it into a failure result fed back to
// the model.
//
// The output limit: finish_reason "length" after a call whose arguments are
// not valid JSON means the limit cut the call. Merge returns the turn so far
// with an *agent.OutputLimitError (errors.Is agent.ErrOutputLimit), so the
// loop runs nothing and adds nothing to the history. A "length" turn whose
// calls are all whole is a turn.
package chat
