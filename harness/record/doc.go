// Package record is agentvcr record: a proxy that sits between an agent and
// a real gateway and saves their conversation as a cassette.
//
// NewProxy(upstream, path, transport, log) opens path for recording
// (cassette.ModeRecord) and returns a Proxy, an http.Handler: serve it on
// loopback and give its URL to the agent as its base URL. Each request is
// forwarded to the upstream base URL (the path after the client's /v1 is
// joined to it) with the client's own headers; the answer streams back as
// it arrives, a tee, so the client reads the first event before the
// upstream has finished. Recorded counts the exchanges so far; Stop waits
// for the streams in flight, then saves.
//
// Rules: exchanges are recorded in the order their requests arrived, not
// the order their answers ended (an agent that sends its next request on
// [DONE] would otherwise see it recorded first). An answer the client stops
// reading early is still read to its end and recorded. The credentials of
// every auth header forwarded (cassette.HeaderSecrets: Authorization,
// X-Api-Key, Api-Key and more) become secrets of the recording, so Stop
// saves through the same redaction, secret scan and temporary file as a
// recorded run: a leak writes nothing, and an old cassette stays as it
// was. No request recorded is cassette.ErrEmptyRecording. A body over
// serve.MaxRequestBody, or an upstream it cannot reach, is answered with
// an OpenAI-shaped error and not recorded.
package record
