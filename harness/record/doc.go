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
// A path of "" records nothing: the Proxy then only forwards (agentvcr
// proxy without -o). Proxy.Rewrite, when set, changes each 200 event-stream
// answer on its way to the client through a Rewriter (package chaos sets
// it; quirk.Stream is one): what is recorded is what the client got. It
// sees every 200 answer whose Content-Type is an event stream
// (IsEventStream: any case, any parameters), decoded from gzip or deflate
// and encoded again; an answer in another encoding passes as it came, with
// a log line, and Unrewritten counts it. A Rewriter error that wraps
// ErrCutAnswer cuts the answer as a broken stream is cut (the connection
// closed mid-body) and the exchange is not recorded.
//
// Rules: exchanges are recorded in the order their requests arrived, not
// the order their answers ended (an agent that sends its next request on
// [DONE] would otherwise see it recorded first). A client that goes (its
// connection closed) before its answer ended cancels the upstream request
// within 1 s or 64 KiB more of the answer, so that no upstream goes on
// generating, and billing, an answer nobody reads; an answer that ends
// within that (the client closed it on its last event) is recorded, one
// cancelled is not, and Stop cancels what is still running. Every credential a
// request carries becomes a secret of the recording: its auth headers by
// any common name (cassette.HeaderSecrets), its secret-named query
// parameters and the upstream URL's userinfo (cassette.URLSecrets; the
// userinfo is sent as basic auth). Stop saves through the same in-memory
// redaction and secret scan as a recorded run: a leak writes nothing, and
// an old cassette stays as it was. No request recorded is
// cassette.ErrEmptyRecording. Nothing the proxy prints (log lines, error
// bodies) holds a credential: URLs go through ShownURL, errors are
// scrubbed. The upstream's own query (Azure's ?api-version=) is kept, the
// client's appended to it.
//
// Encodings: the client's Accept-Encoding is not forwarded (Go's transport
// asks for gzip and inflates it); a Content-Encoding passes both ways with
// the bytes it describes, and the recording holds the body decoded (gzip,
// deflate) so the scan reads it. A body in another encoding (br, zstd:
// the standard library has no decoder, and none is worth a dependency for
// what arrives only unasked) is passed on and not recorded
// (ErrUnscannableEncoding). A body over serve.MaxRequestBody (413), one
// not sent within serve.DefaultReadTimeout (408), or an upstream it
// cannot reach (502) is answered with an OpenAI-shaped error and not
// recorded.
package record
