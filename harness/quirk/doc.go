// Package quirk breaks clean model streams the way real gateways break
// them, so an agent's stream handling can be tested against every shape it
// will meet (the README's quirk catalog says where each was seen).
//
// All is the one registry: every Quirk of every wire format, benign ones
// first, in a fixed order. ByName finds one, OfAPI lists one format's,
// Names lists what a user may pick (agentvcr serve -quirk, the /s/NAME~Q
// case URLs). Apply a quirk to one SSE body with Quirk.Apply(body, seed),
// to every SSE response of a cassette with ApplyToCassette (dropped call
// ids are renamed in the requests that follow, as the agent will send
// them), or to live traffic with Transport.
//
// Rules:
//   - A quirk's API names the format it edits (agent.Format.Name: chat,
//     messages, responses, gemini); every quirk All returns refuses a stream in
//     another format (wire.Detect) with ErrNotApplicable, one guard
//     for all. crlf and comments have no API: they edit the framing of any
//     stream. A transform that cannot produce its shape from a stream
//     without changing what it means (no_index on interleaved calls) is
//     ErrNotApplicable too; callers that sweep every quirk skip those.
//   - Benign means a correct merger reads the broken stream as the same
//     turn (same text, same calls in the same order); Warns that it also
//     reports a warning; Reasoning that it adds reasoning text the merger
//     keeps apart (the transcript gains thinking lines only); DropsIDs that
//     the calls lose their ids.
//   - The same body and seed always give the same bytes. Only the events a
//     transform edits are re-encoded, their members in the original order.
//   - Each format's files hold its quirks (chat*.go, messages*.go,
//     responses*.go); a new quirk goes in its format's list (or a list
//     that one appends) and nowhere else. The goldens in testdata are rewritten by go test
//     ./harness/quirk -update.
package quirk
