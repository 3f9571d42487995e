// Package gateway is the project's scripted stand-in for a model gateway on
// loopback: it plays Scripts, checks every request the way a real gateway
// does, and is what the base cassettes are recorded from. It is never
// presented as a live model.
//
// New(key, scripts...) returns a Gateway; Start serves it and returns the
// base URL (ending in /v1) and a stop function. It speaks POST
// /v1/chat/completions, the OpenAI Responses API POST /v1/responses and
// Anthropic Messages POST /v1/messages (key in x-api-key; the others take
// "Authorization: Bearer <key>"), streaming only ("stream": true). The
// request's "model" picks the Script; turn N of the script (a ScriptTurn:
// reasoning, text, ScriptCalls) answers the request that carries N-1
// assistant messages, so the gateway keeps no state. StreamChat,
// StreamMessages and StreamResponses render one ScriptTurn as the events of
// a clean stream in each format, the same bytes for the same inputs.
//
// Rules: every request is checked against its format's message invariants
// (agent.CheckMessages and the others) and one that breaks them is answered
// 400 and kept in Refused (ErrInvariant). A turn may stream reasoning as
// reasoning_content (DeepSeek's thinking mode) or sign a call with
// extra_content.google.thought_signature (Gemini); every later request must
// echo them exactly on that assistant message, or the gateway answers 400
// with that provider's message (ErrEchoMissing). A ScriptTurn with a Status
// answers that HTTP error instead of a stream (ErrorScripts: http_429,
// http_500, http_503). Errors come in the format's shape (package
// apierror); the echo refusals, DeepSeek's and Gemini's, in OpenAI's on
// every route. The scripts of the demo's conversations, and the sandbox
// repository they talk about, are in package demo.
//
// ReadScriptFile reads a Script from a file written by hand (YAML whose
// fields are Script's, ScriptTurn's and ScriptCall's yaml names), checking
// it: every problem is one line naming the file and the line. Script.Pick
// chooses the turn that answers a request: the first whose UserContains or
// UserMatches the last user message meets, else the one of its place in
// the conversation. agentvcr serve -script serves such files in every
// format (package serve's ScriptRouter).
//
// SSEFiles is the other stand-in: a transport that answers the n-th request
// with the n-th file, raw, how a scenario feeds the loop a stream pasted
// from a bug report.
package gateway
