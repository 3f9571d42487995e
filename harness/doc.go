// Package harness records, replays and breaks chat-completions (and OpenAI
// Responses) traffic so the agent core can be tested offline, the way a
// network and real gateways deliver it.
//
// # Cassettes (cassette.go, cassette_load.go, match.go, redact.go, secrets.go, secretscan.go)
//
// OpenCassette opens a go-vcr v2.1.0 cassette, always through
// recorder.NewAsMode:
//
//   - ModeReplay (default) uses recorder.ModeReplaying with
//     SkipRequestLatency; a missing file is cassette.ErrCassetteNotFound and
//     nothing reaches the network. The file is checked first (LoadCassette):
//     YAML that does not decode, a format version other than 1 (go-vcr v3
//     and later write 2), an interaction without a request or a response
//     status, and an expanded size over DefaultMaxCassetteBytes (256 MiB of
//     URLs and bodies, each YAML alias counted every time it is used;
//     AGENTVCR_MAX_CASSETTE_MB raises it) are ErrBadCassette, with a message
//     that says what to do.
//   - ModeRecord sends requests to the real transport and has go-vcr write
//     a fresh temporary file beside the cassette (v2.1.0 appends to an
//     existing one); Stop saves it, scans it and only then moves it over the
//     cassette, so re-recording replaces and never appends, and a failed or
//     leaking recording (Discard, ErrSecretInCassette) leaves the old
//     cassette as it was. An empty recording writes no file and is
//     ErrEmptyRecording.
//
// A request matches a recorded one on method, URL path and the canonical
// JSON of the body (keys sorted, whitespace dropped, numbers as written);
// host, query and headers are not compared, so a replay may use any base
// URL. Each recorded interaction serves at most one request, in any order.
// A request that matches none fails its RoundTrip with a *MissError
// (errors.Is ErrReplayMiss) naming the scenario, the request's number in
// the conversation and a cmp.Diff (-recorded +sent) against the nearest
// unused recorded request. After a replay, Stop fails with
// ErrUnusedInteractions when an interaction was never asked for.
//
// Redaction (Secrets, the one path a recording proxy uses too) runs in a
// save filter only (AddFilter would change the live response): request and
// response headers are cut to an allowlist (Accept, Content-Type), userinfo
// and secret-named query values leave the URL, every secret becomes
// REDACTED in bodies, forms and URLs, as written, URL-escaped, inside
// escaped JSON strings (\u0073k-...) and inside base64, and the recorded
// duration is zeroed. Stop then scans the saved file, raw and decoded (the
// JSON text of each stream joined per place, so a key split across two
// deltas is found; %XX decoded; base64), for each secret and for sk- keys;
// a hit, or a file it cannot read, writes nothing and returns
// ErrSecretInCassette (a *SecretError naming places, never the secret).
// A secret inside a request body is redacted too, so such a request will
// not match on replay: keep keys out of prompts.
//
// # Re-chunking (rechunk.go)
//
// go-vcr hands back each body whole. CassetteOptions.Rechunk (or
// Rechunk.Transport around any RoundTripper) re-delivers bodies one piece
// per Read: a byte at a time, split inside every CRLF and every multi-byte
// UTF-8 character, or in seeded random sizes. Pieces depend only on the
// body, mode and seed. The reader cuts lazily, reading the body 32 KiB at a
// time, so a 50 MiB body costs no more memory than a small one.
//
// # Streams and quirks (sse.go, quirk.go, quirk_stream.go, quirk_cassette.go, quirk_responses.go)
//
// ParseSSE and FormatSSE read and write SSE framing without interpreting
// data. Quirks lists the transforms that turn one clean stream into the
// broken shapes real gateways send (the README's quirk catalog says where
// each was seen); each is Benign when a correct accumulator merges it into
// the same turn, Warns when the merger also reports a warning for it. A
// quirk's API names the wire format it edits (chat completions, or the
// OpenAI Responses API for the responses_* ones); on a stream or cassette
// in another format it is ErrQuirkNotApplicable. crlf and comments edit
// any SSE stream.
// Only the chunks a transform edits are re-encoded, in their original key
// order. ApplyQuirkToCassette applies a quirk to every SSE response of a
// cassette, renaming dropped call ids in the requests that follow. The
// goldens in testdata/quirks are rewritten by go test ./harness -update.
//
// # Scripted gateway (gateway.go, gateway_stream.go, gateway_echo.go, gateway_responses.go, gateway_responses_stream.go, script.go)
//
// Gateway is the project's stand-in for an OpenAI-compatible gateway on
// loopback: POST /v1/chat/completions and POST /v1/responses (the OpenAI
// Responses API: input items read into the same messages, a clean
// Responses stream with the call ids the chat stream would give) with
// "stream": true, answered from a Script picked by the request's "model";
// reply N answers the request that carries N-1 assistant messages, so the
// gateway keeps no state. It checks
// the message invariants (agent.CheckMessages) on every request and answers
// 400 to one that breaks them, as a real gateway does. A reply may stream
// reasoning as reasoning_content (DeepSeek's thinking mode) and sign a call
// with extra_content.google.thought_signature (Gemini); every later request
// must then echo them exactly on that assistant message, or the gateway
// answers 400 with the provider's message (ErrEchoMissing). ErrorScripts
// (http_429, http_500, http_503) answer with HTTP errors. The scripts of the
// demo's conversations, and the sandbox repository they talk about, are in
// package demo. The gateway is never presented as a live model.
//
// SSEFiles serves raw SSE files as the model's turns, in order.
//
// # Server (server.go, server_stream.go, server_fault.go, server_replies.go, server_router.go)
//
// Server is the one OpenAI-compatible HTTP server: agentvcr serve, agentvcr
// conform and the tests all use it. It answers POST /v1/chat/completions,
// POST /v1/responses (a turn of a Responses input is a run of assistant
// message and function_call items) and GET /v1/models on the plain base
// URL and on scenario-scoped ones,
// /s/<case>/v1, because an agent can always set a base URL but often not a
// header. Its seam is Route: a function from the case name ("" for the
// plain URL) to a *Route, whose Reply func answers one ServeRequest (model,
// turn, body) with a ServeReply (status, headers, bytes). CassetteRouter
// routes to cassettes ("<name>", "<name>~<quirk>"), answering with Replies
// by canonical body (MatchBody, the replay's matcher) or by turn
// (MatchTurn: the reply recorded for the request carrying as many
// assistant messages); a conformance runner plugs in its own Reply.
//
// The server keeps no conversation state: each request is answered on its
// own, an interaction as often as it is asked for, by any number of
// clients at once. SSE replies are written event by event (SplitEvents),
// each flushed, with Route.Pace before each; a Route.Rechunk cuts them
// into its pieces instead. A Reply error answers 404 with the error's
// message (a *MissError carries the replay's diff) and goes to Log.
// Route.Fault breaks replies on the recorded bytes: 429 with Retry-After
// on a request's first attempt (the same body then gets the real reply),
// 500, a stall after N events until the client goes, a reset (connection
// closed after N events), an error event after N events inside the 200
// stream. Journal receives one JSON line per request (JournalEntry).
//
// # Recording proxy (record_proxy.go)
//
// RecordingProxy is agentvcr record: an http.Handler that forwards each
// request to an upstream base URL with the client's own headers, streams
// the answer back as it arrives (a tee: the client reads the first event
// before the upstream has finished), and records the exchange through a
// ModeRecord Cassette, so Stop saves it by the same redaction, secret scan
// and temporary file as a recorded run. The credentials of every auth
// header it forwards (HeaderSecrets) become secrets of the recording.
package harness
