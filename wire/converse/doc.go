// Package converse is Amazon Bedrock's Converse API as a wire format
// (Format): POST {base}/model/{modelId}/converse-stream, a request of its
// own shape (messages of content blocks, "system", "toolConfig",
// "inferenceConfig"), answered in Bedrock's event stream framing, one
// message per event: messageStart, contentBlockStart (a toolUse block's
// toolUseId and name), contentBlockDelta (text, a piece of a toolUse's
// input, reasoningContent), contentBlockStop, messageStop (stopReason) and
// metadata (usage); an error mid-stream is an exception message
// (throttlingException, modelStreamErrorException, ...).
//
// # The logical form
//
// Like every format, Converse keeps one logical form of its stream, SSE
// events, in what writes or edits a stream (Write, the quirks, the
// scripted gateway); the framing turns each event into a message and back.
// An event is "event: <type>" with data {"<type>": <the message's
// payload>}, the union the SDKs model ConverseStreamOutput as, so the
// merger reads the type from the data; an exception is "event: error" with
// data {"type": <exception>, "message": ...}, which the merger returns as a
// *agent.StreamError of that type.
//
// # Requests
//
// Body writes system messages as "system" text blocks; an assistant
// message as its text, then one toolUse block per call (the input the
// arguments' JSON object, {} when they are none); the tool messages after
// it as one user message of toolResult blocks, in order, and a user
// message right after them joins it. Decode reads a request back; Check
// enforces what the API refuses with a ValidationException: the
// conversation starts with a user message and alternates roles, every
// toolUse of an assistant message is answered by a toolResult of the next
// user message, and no toolResult answers nothing.
//
// # Merging
//
// Blocks are kept by contentBlockIndex. A text delta joins the turn's text
// (text blocks need no start); a toolUse start opens a call, and each
// toolUse delta's input joins its arguments, for a delta whose index never
// started too (a call with no name then); reasoningContent joins the
// turn's thinking with its signature. The calls come out in index order,
// an id-less one named tooluse_<index>, an empty input "{}". stopReason
// "tool_use" or any call makes a tool turn. A stream that ends before
// messageStop is truncated (agent.ErrTruncatedStream); an exception is a
// stream error; unknown event types and members change nothing.
package converse
