// Package responsesws is the OpenAI Responses API over a WebSocket, the
// transport Codex CLI dials before it posts (and opencode uses on its
// OpenAI routes): what its frames mean, apart from any one connection.
//
// The contract, as the Codex source reads and writes it
// (codex-rs/codex-api/src/endpoint/responses_websocket.rs and
// core/src/client.rs in openai/codex): the client upgrades a GET on the
// Responses path ({base}/responses) with the same auth header a POST has;
// it sends text frames, each a JSON object with a "type":
//
//   - "response.create": the Responses request body, plus "type", and
//     optionally "previous_response_id" (the response this continues: the
//     frame then carries only the new input items) and "generate": false
//     (a warm-up that produces no output but an id to continue from);
//   - "response.processed": the client has handled a response; no answer.
//
// The server answers each response.create with the Responses stream's
// events, one JSON object per text frame (the objects of the SSE data
// lines, sequence_number and all), ending on response.completed,
// response.failed or response.incomplete. A request the server refuses is
// answered in-band, {"type":"error","status":N,"error":{...}} (Codex maps
// the status as it maps an HTTP one, and retries the whole input on the
// code previous_response_not_found); the connection stays open and carries
// the next cycle. What a continuation stands for is held per connection,
// even for requests with "store": false.
//
// ParseFrame reads a frame; Frame.Body is the HTTP request it stands for,
// given the whole input, which Held.Resolve makes of the held context and
// the frame's input; Held.Keep holds a response's context and output
// (OutputItems) under its id (ResponseID). Frames and Event turn a stream
// into frames and a frame back into its SSE event; ErrorFrame,
// PreviousNotFound and ReadError are the in-band errors.
//
// agentvcr serve speaks the transport on every case URL (package serve);
// Transport is the client side, for agentvcr run.
package responsesws
