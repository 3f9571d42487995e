// Package cassette records and replays HTTP traffic with go-vcr v2.1.0
// cassettes, so an agent runs offline on what a gateway once said, and
// keeps every secret out of the files.
//
// # Replaying and recording
//
// Open(path, mode, real, opts) opens a cassette; give Cassette.Client (or
// Transport) to the code under test, then call Stop exactly once.
//
//   - ModeReplay (the default) serves recorded interactions only, with no
//     recorded latency; nothing reaches the network and a missing file is
//     go-vcr's ErrCassetteNotFound. The file is checked first (Load): YAML
//     that does not decode, a format version other than 1 (go-vcr v3 and
//     later write 2), an interaction without a request or a response
//     status, or an expanded size over DefaultMaxBytes (256 MiB of URLs and
//     bodies, each YAML alias counted every time it is used; MaxBytesEnv,
//     AGENTVCR_MAX_CASSETTE_MB, raises it) is ErrBadCassette, with a
//     message that says what to do. Decode applies the same checks to bytes.
//     The file is decoded once, as it is read, and a replay opened from a
//     file holds no answer whole: every answer written as a literal block
//     scalar or a double-quoted one (as go-vcr writes an event stream, the
//     latter when its events end in CRLF) stays in the file, checked and
//     counted by the decoder, and is read from there as the caller reads the
//     response (answer.go). The file stays open until Stop or Discard, which
//     close it: one removed or renamed over meanwhile still serves what was
//     decoded; one changed in place fails the request, or the answer's last
//     read, with ErrBadCassette, and never passes other bytes off as the
//     answer. Cassette.Recording reads what the first request says (run
//     -cassette replays a file this way). Replay(file, loaded, opts) replays
//     a cassette the caller already decoded with every body in memory
//     (Decode, DecodeFile for a file under any name, Load; serve keeps them
//     so, to serve each many times), each body read from the decoded string
//     and dropped from the cassette once served. Either serves, for each
//     request, the first unused interaction that matches, as go-vcr's
//     replaying recorder would (replay.go). Decoding reads go-vcr's own YAML
//     layout itself, the bodies it holds straight into one buffer sized from
//     the file (vcryaml.go: exactly what yaml.v3 decodes, a test holds it to
//     that), and hands anything else to yaml.v3 (anchors, comments, folded
//     or multi-line scalars...), whose errors are the ones reported and
//     which holds every body.
//   - ModeRecord sends requests to real and keeps what go-vcr captures in
//     memory; Stop redacts, encodes and scans it there, and only a clean
//     file is written, to a temporary file beside the cassette, then
//     renamed over it: nothing unscanned is ever on disk, re-recording
//     replaces and never appends, and a failed or leaking recording
//     (Discard, ErrSecretInCassette) writes nothing and leaves the old
//     cassette as it was. A temporary file left by a recording killed
//     while saving is removed by the next Open, with a line on
//     Options.Log. An empty recording writes no file and is
//     ErrEmptyRecording.
//
// Options.Rechunk re-delivers the bodies in pieces (package rechunk).
// ReadRecording reads what a cassette's first request says (wire format,
// base URL, model, prompt), enough to replay it with the same request
// bytes; File is the file name of a scenario's cassette in a language.
//
// # Matching
//
// A request matches a recorded one on method, URL path and the canonical
// JSON of the body (keys sorted, whitespace dropped, numbers as written):
// its RequestKey. Host, query and headers are not compared, so a replay may
// use any base URL. Each recorded interaction serves at most one request,
// in any order. A request that matches none fails its RoundTrip with a
// *MissError (errors.Is ErrReplayMiss) naming the scenario, the request's
// number in the conversation and a cmp.Diff (-recorded +sent) against the
// nearest unused recorded request (Nearest, one pass over each body). The
// Diff is a summary, bounded wherever it is printed: MaxDiffLines lines,
// each compared line cut at MaxDiffLineBytes with its length and a hash;
// WholeDiff is the diff uncut (SetNearest fills both). After a replay, Stop fails
// with ErrUnusedInteractions when an interaction was never asked for.
// KeyIgnoring leaves fields out of the canonical body (IgnorePath: dotted
// keys and indexes, * any; VolatilePaths, the fields that differ between
// two runs of one agent), for serve -ignore.
//
// # Event times
//
// EventTimesHeader is a response header that holds when each event of a
// recorded stream arrived (FormatEventTimes, ParseEventTimes,
// TimedInteractions): a header because go-vcr v2.1.0 keeps headers as they
// are, so cassettes without it stay byte for byte and replay as before.
//
// # Secrets
//
// Secrets (Options.Secrets, Cassette.AddSecrets, HeaderSecrets for the
// credentials of auth headers, URLSecrets for a URL's userinfo and
// secret-named query values) are redacted in a save filter only, so the
// live response is untouched: request and response headers are cut to an
// allowlist (Accept, Content-Type; a response's EventTimesHeader that
// reads, and its TransportHeader when it says websocket), userinfo and secret-named query values
// leave the URL, every secret becomes REDACTED in bodies, forms and URLs,
// as written, URL-escaped, inside escaped JSON strings (\u0073k-...) and
// inside base64, and the recorded duration is zeroed. Stop then scans the
// encoded file in memory (Secrets.ScanData), raw and decoded (the JSON text of each stream joined per
// place, so a key split across two deltas is found; %XX decoded; base64),
// for each secret and for the credential shapes providers publish, named
// or not (sk-, Anthropic sk-ant-, OpenAI sk-proj-, Google AIza and 35
// characters, Google OAuth ya29., AWS AKIA/ASIA key ids and a secret access
// key next to its name, GitHub ghp_/gho_/ghu_/ghs_/ghr_ and github_pat_,
// JWTs of three base64url parts), in bodies, joined deltas and every header
// record whatever its name; a hit, or a file it cannot read,
// writes nothing and returns ErrSecretInCassette (a *SecretError naming
// places, never the secret). A secret inside a request body is redacted
// too, so such a request will not match on replay: keep keys out of
// prompts.
package cassette
