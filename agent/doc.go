// Package agent is the neutral core of a read-only coding agent: the
// messages, tool calls and turns every wire format maps to, the client that
// posts a request and merges the streamed answer through a Format, and the
// loop think -> call tools -> observe.
//
// # Wire formats (Format)
//
// A Format is the whole contract of one wire format: its request body and
// headers, its stream merger (io.Reader -> *Turn), the invariants a request
// in it must keep, how a server decodes one of its requests and counts its
// turns, and its error shapes. Each format is a package under wire/ (wire/chat,
// wire/messages, wire/responses) that imports this one; package wire lists
// them. Client.Format selects one (it is required: ErrNoFormat); Client and
// Loop only call through it, so the loop, events, tools and truncation never
// branch on the format. The neutral Message is the chat-completions message
// plus what other formats must echo (Thinking); a format's Body converts it
// and its Merge fills the same Turn.
//
// The core also holds what every merger shares: Turn and Usage,
// StreamError with the parsers of error objects (EventError, MemberError,
// BodyError), ErrTruncatedStream for a stream that ends before its end,
// OutputLimitError (ErrOutputLimit) for a call the output token limit cut,
// and MaxEventBytes, the bound on one server-sent event (ErrEventTooLarge).
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
