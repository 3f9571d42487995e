// Package chaos is agentvcr proxy: the catalog's broken shapes injected
// into an agent's live traffic. An agent talks to its real provider
// through a record.Proxy, and a Chaos in front of it breaks what comes
// back, answer by answer, as it arrives.
//
// Build a record.Proxy (record.NewProxy: path "" records nothing, a path
// records what the client received), set up a Chaos (Quirk, Fault, Seed)
// and serve c.Handler(p) on loopback; give its URL to the agent as its base
// URL.
//
// What breaks:
//   - Quirk rewrites every 200 event-stream answer (record.IsEventStream:
//     text/event-stream in any case, with any parameters) to a POST on a
//     format's endpoint (wire.ForPath) through quirk.Stream, the N-th answer
//     with Seed+N (0-based), the seeds quirk.ApplyToCassette gives a
//     cassette's answers. The bytes the agent gets are what Quirk.Apply makes
//     of the whole answer; what the quirk holds back meanwhile is what
//     Quirk.Holds says (nothing, from its first call event, or the answer).
//     An answer the quirk does not apply to (quirk.ErrNotApplicable) passes
//     with its events as they came, and the proxy logs one line for it.
//   - What a quirk may hold of one answer is bounded by MaxHeld
//     (DefaultMaxHeld, 64 MiB, when 0; agentvcr proxy -max-held): an answer
//     that would take it past the bound (an upstream whose call arguments
//     never end) is cut there as a broken stream is (the client reads an
//     unexpected EOF; record.ErrCutAnswer), the proxy logs why, and the
//     upstream request is cancelled. MostHeld is the most one answer's
//     quirk held, Cut how many answers were cut.
//   - Encodings: an answer in gzip or deflate (the zlib form or raw) is
//     decoded for the quirk and the fault and encoded again in the form it
//     came in; identity is no encoding. One in an encoding the proxy cannot
//     decode (br, zstd, any other, or two codings) cannot be broken: it
//     passes as it came, the log says so for that request, and
//     record.Proxy.Unrewritten counts it (agentvcr proxy prints the count
//     at exit).
//   - A client that goes cancels its upstream request: an endless or
//     stalled answer nobody reads is not left running upstream.
//   - Fault breaks the answers of its turn as serve.Fault breaks agentvcr
//     serve's replies: a 429 (once per request body, with Retry-After) or a
//     500 is answered here without reaching the upstream, and is not
//     recorded; stall, reset and error-event pass the first N events of
//     the (quirked) answer, then stop sending until the client goes, close
//     the connection, or send the format's error event (serve.ErrorEvent)
//     and end. The turn is the request's (agent.Format.TurnOf).
//   - Every other request, and every answer that is not a 200 event stream
//     (errors, JSON bodies), passes as it comes.
//
// The proof that a quirk works on live traffic is on the scripted gateway
// (package gateway) on loopback: no live provider is reachable from where
// the tests run. proxy_test.go runs our agent through the proxy with every
// quirk of every format and every fault.
package chaos
