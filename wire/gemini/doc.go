// Package gemini is Gemini's native wire format (Format): POST
// {base}/v1beta/models/{model}:streamGenerateContent?alt=sse with the key in
// x-goog-api-key, the request body, the stream merger, and the rule the API
// enforces with a 400 (Check, and Decode for a request a server receives).
// The model is in the path, not the body, and :generateContent is the same
// request answered with one JSON object; agent.Format's Query, PathModel and
// WholePath say so to the client and to servers.
//
// # Addressings
//
// Vertex AI serves the same requests and streams at
// /{v1|v1beta1}/projects/{project}/locations/{location}/publishers/google/models/{model}:streamGenerateContent
// (location "global" on https://aiplatform.googleapis.com), and in express
// mode, with an API key and no project, at
// /{v1|v1beta1}/publishers/google/models/{model}:{method}. Serves and
// PathModel read both addressings under any prefix; ServedPath maps a
// Vertex AI request to Google AI's path, so one recording answers both;
// APIPath is the path from its version on, what a proxy joins to the
// provider's root URL. Vertex AI authenticates with "Authorization: Bearer
// TOKEN" (an OAuth access token) where Google AI takes x-goog-api-key: Key
// reads either. The client (Path, Header) speaks Google AI's addressing.
//
// # Requests
//
// Body makes "contents" of the neutral messages: a user message is a "user"
// content with a text part; an assistant message a "model" content with its
// text part and then one functionCall part per call ({id, name, args}); the
// tool messages after it one "user" content of functionResponse parts
// ({id, name, response: {"output": text}}), in the calls' order. System
// messages become systemInstruction, tools one functionDeclarations list
// (parametersJsonSchema). A call's thought signature is kept on
// agent.ToolCall.ExtraContent as {"google":{"thought_signature":…}}, the
// shape Gemini's OpenAI-compatible endpoint uses in chat completions (see
// Signature, WithSignature), and Body sends it back as the thoughtSignature
// of that call's part; a signature on a text part is kept as an
// agent.ThinkingRedacted block and goes back on the model turn's first part.
//
// # Streams
//
// Each event's data is one GenerateContentResponse (Google frames events
// with CRLF; any line end reads), read by a fast path without reflection
// when it has the usual shape and by encoding/json otherwise, to the same
// result (a fuzz test holds the two together). Only the first candidate
// (index 0) is the turn, the rule the chat format applies to several
// choices; parts of others are dropped with a warning. Its content's parts
// merge in order: text parts join the turn's text; parts with
// "thought": true are reasoning (agent.ThinkingReasoning, shown apart, never
// sent back); a functionCall part is a call, its args compacted ("{}" when
// absent or null), its id kept or made up (CallID, its position in the
// turn), its thoughtSignature in ExtraContent. A functionCall part without
// a name continues the call before it, its args members laid over that
// call's (proxies that split a call send the name first), with a warning.
//
// A call's arguments may also stream (Vertex AI's
// streamFunctionCallArguments, Gemini 3): the part that names the call says
// willContinue, the parts after it carry partialArgs, each a jsonPath
// ("$.a.b[2]", "$['key']") and one of stringValue, numberValue, boolValue
// or nullValue, and the call ends at a part that does not say willContinue
// or at an empty functionCall ({}). The arguments are built exactly: objects
// keep their keys in the order the stream first named them, arrays grow by
// index (a hole left is null), the pieces of one string are appended in
// order, and a piece that contradicts what is built (an index into an
// object, a number where a string grows) is an error, never a guess. A part
// naming another call ends the open one with a warning. A stream that ends
// with a call still open is agent.ErrTruncatedStream; finishReason
// MAX_TOKENS with a call open is an agent.OutputLimitError; another
// finishReason with a call open ends the call, with a warning.
//
// Several finishReasons may come (code execution sends STOP mid-stream and
// goes on): the last is FinishReason, with a warning when they differ, as
// Gemini names it (STOP with and without calls, MAX_TOKENS, SAFETY,
// RECITATION, ...); finishMessage, when sent, is part of the error it
// explains (a refused call, a blocked answer). No call of a turn runs when
// the model's calls are invalid: MALFORMED_FUNCTION_CALL is ErrMalformedFunctionCall and
// UNEXPECTED_TOOL_CALL is ErrUnexpectedToolCall, with or without call parts
// before them, the same refusal as a call cut by the output limit. A turn
// with no text and no call whose prompt was blocked
// (promptFeedback.blockReason) or whose answer was (finishReason SAFETY,
// RECITATION, PROHIBITED_CONTENT, BLOCKLIST, SPII, IMAGE_SAFETY, LANGUAGE or
// OTHER) is a *BlockedError, matched by errors.Is(err, ErrBlocked), naming
// the reason; a turn that has content keeps it, with that finish reason.
// The last usageMetadata is the usage (thoughts count as completion
// tokens). An object with an "error" member, Google's
// {"code","message","status"}, is a *agent.StreamError (status as its
// type), whether it comes as an event's data or, as Google sends it when a
// request is cancelled mid-stream, as a bare JSON line between events; a
// stream with no finishReason is agent.ErrTruncatedStream.
//
// Check adds to agent.CheckMessages the rule Gemini answers with a 400:
// every functionCall of a model content has a name and is answered, in
// order, by a functionResponse of the same name at the head of the next
// content, and no functionResponse appears anywhere else.
package gemini
