// Package serve is the one model-API server of agentvcr: agentvcr serve,
// agentvcr conform and the tests all answer agents through it.
//
// A Server answers POST /v1/chat/completions, POST /v1/responses, POST
// /v1/messages (Anthropic Messages: the client's base URL is the server's
// root, without /v1) and GET /v1/models, on the plain base URL and on
// scenario-scoped ones, /s/<case>/v1, because an agent can always set a
// base URL but often not a header. Start serves it and returns the base
// URL; ScenarioURL gives a case's. Its seam is Route: a function from the
// case name ("" for the plain URL) to a *Route, whose Answer func answers
// one Request (case, path, body, model, turn) with a Reply (status,
// headers, bytes). CassetteRouter routes to cassettes ("<name>",
// "<name>~<quirk>" under a quirk transform) through a Replayer, which
// matches by canonical body (MatchBody, the replay's matcher) or by turn
// (MatchTurn: the reply recorded for the request carrying as many
// assistant messages); a conformance runner plugs in its own Answer.
// A ServedCassette is bytes (Data) or a file (Path); the router decodes
// each once, a file as it reads it, and every plain route serves those
// decoded bodies without a copy (CassetteRouter.Decoded returns them), so a
// served cassette of N MB holds about N MB (the figures are in
// docs/reliability.md); a quirk route is built from the YAML encoded again, for as
// long as the quirk takes.
//
// Rules:
//   - No conversation state over HTTP: each request is answered on its own, an
//     interaction as often as it is asked for, by any number of clients at
//     once.
//   - SSE replies are written event by event (sse.SplitEvents), each
//     flushed, with Route.Pace before each, or under Route.PaceRecorded
//     each at the time it arrived when recorded (Reply.At, from
//     cassette.EventTimesHeader; Route.Speed scales it); Route.Rechunk cuts
//     them into its pieces instead; Route.Coalesce writes them at once
//     (load tests).
//   - An Answer error is a 404 carrying the error's message (a *MissError
//     carries the replay's diff) and goes to Log. Every error the server
//     answers has the shape of the request's format (package apierror):
//     Anthropic's on /v1/messages, OpenAI's elsewhere.
//   - Route.Fault breaks replies on the recorded bytes: 429 with
//     Retry-After on a request's first attempt (the same body then gets the
//     real reply), 500, a stall after N events until the client goes, a
//     reset (connection closed after N events), or an error event in the
//     format's shape after N events inside the 200 stream. ParseFault reads
//     the -fault flag.
//   - Journal receives one JSON line per request (JournalEntry), a miss's
//     whole diff included; the 404 and Log carry a summary of it
//     (cassette.MaxDiffLines lines, each compared line cut at
//     cassette.MaxDiffLineBytes).
//   - Bodies are read by ReadBody under Server.MaxBody (MaxRequestBody by
//     default: 413 over it, declared or sent) within Server.ReadTimeout
//     (DefaultReadTimeout: 408, and the client is dropped); memory grows
//     with the bytes that arrive (chunks never copied while a body comes,
//     joined once it is whole), the bodies still arriving hold at most
//     Server.MaxBodyTotal together (DefaultMaxBodyTotal: 503 with
//     Retry-After past it), and what the server remembers across
//     requests names a body by its SHA-256, so no body outlives its answer.
//   - The Responses path also takes a WebSocket upgrade (websocket.go;
//     the frames are package responsesws's): one cycle per response.create
//     frame, its body made of the connection's held context and its input,
//     answered by the same Answer, faults, pacing and journal as a POST
//     (Request.Transport and JournalEntry.Transport say "websocket"),
//     each event sent as one text frame, an error status as an in-band
//     error frame, a continuation of an unknown response answered
//     previous_response_not_found. The only state the server keeps is each
//     connection's held responses (a few, the newest). The ws-* faults
//     break the frames (split, pair, close with or without a code, ping
//     storm, error frame, a forgotten previous_response_id, the upgrade
//     refused with 426); HTTP requests are served clean under them.
//     Route.WebSocket sees every handshake. Bad input closes the
//     connection with a code and a log line: 1007 for a frame that is not a
//     JSON object, 1003 binary, 1009 over MaxBody, 1013 past MaxBodyTotal
//     or MaxWebSockets (DefaultMaxWebSockets), and a client that reads
//     nothing for FrameWriteTimeout loses its connection. A Rechunk does
//     not apply to frames: a frame holds whole events.
//   - ScriptRouter routes cases to scripted conversations (package
//     gateway's Script, read by ReadScriptFile): each request answered in
//     the format of its path through that format's Write of the turn
//     Script.Pick gives, a status turn with the format's error, under a
//     ~QUIRK like a cassette; its Next routes the names it has not.
//   - Start and Serve give a base URL that works on this machine
//     (ListenURL); a command that listens beyond loopback prints Exposure.
package serve
