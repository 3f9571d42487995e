// Package quirk breaks clean model streams the way real gateways break
// them, so an agent's stream handling can be tested against every shape it
// will meet (docs/quirks.md says where each was seen).
//
// All is the one registry: every Quirk of every wire format, benign ones
// first, in a fixed order. ByName finds one, OfAPI lists one format's,
// Names lists what a user may pick (agentvcr serve -quirk, the /s/NAME~Q
// case URLs). Apply a quirk to one SSE body with Quirk.Apply(body, seed),
// to every SSE response of a cassette with ApplyToCassette (dropped call
// ids are renamed in the requests that follow, as the agent will send
// them; ReadCassette reads a cassette once for several quirks, each
// Cassette.Apply giving what ApplyToCassette gives), or to live traffic
// with Transport (which reads each answer whole) or Stream (which takes an
// answer as it arrives: agentvcr proxy).
//
// Composition: Lookup (and ByName) read "q1+q2+q3" as the quirk that applies
// its parts left to right, each to what the one before made of the
// stream, all with the same seed (Compose); its name is the joined names,
// its format its parts' (format-free ones take any), its markers all of
// theirs; it is benign when every part is. Whether parts compose is read
// from data each quirk's list declares beside it (compose_aspects.go):
// the aspects of a stream it edits (line ends, comment lines, call ids,
// argument pieces, the stream's end...), those it needs as the clean
// stream has them, those it writes anew (every quirk writes the line ends
// again; Gemini's drop comments; Responses' renumber sequence numbers) and
// those no later part may edit (a cut stream: all but the lines). Refused,
// with ErrCannotCompose and one line naming both parts: the same part
// twice, two formats, two parts that break the answer, two that edit the
// same aspect, one that needs what the other edits, a part before one
// that writes anew what it edited (crlf before anything), a part after
// one that closed what it edits. An unknown part is ErrUnknown, named.
// A composition's Stream chains its parts' Streams: it holds what they
// hold (Holds lists each; "the answer" when one holds it), and sends
// exactly its Apply's bytes (TestStreamIsApply checks the compositions of
// composedUnderTest too). A part that refuses an answer passes on what it
// reads, as it came, and the others go on; the whole-body Apply refuses.
//
// Streaming: q.Stream(seed) returns a Stream; Write hands it the answer's
// bytes in any pieces and returns the bytes to send on, Close the rest.
// What it sends in all is exactly q.Apply(answer, seed) (TestStreamIsApply
// checks it for every quirk, over every cassette's answers and every stream
// fixture, fed event by event, byte by byte and in random pieces). Each
// quirk holds back only what its edit needs, as q.Holds says:
//   - nothing: the framing quirks (crlf, comments, gemini_lf, no_done,
//     messages_no_event_lines...), those that edit each event on its own
//     (content_parts, messages_input_null, messages_ping_before_delta...)
//     and the chat call quirks that edit each piece knowing only its call
//     so far (index_plus_1, index_minus_1, ids_dropped, id_every_piece,
//     name_every_piece: a pieceEdit, its call found as the pieces come);
//   - the latest event: gemini_finish_alone, gemini_empty_candidate and
//     gemini_cut_before_finish edit only the answer's last event, so each
//     event waits for the next (and the last is Apply'd alone);
//   - one chunk: several_choices holds each chunk of choice 0 until the
//     next (the decoy after the last one carries the finish), and the
//     answer's start until its second chunk (a shorter answer is left as it
//     came);
//   - from the first event its edit may touch (a chat tool-call piece, a
//     tool_use block, a Responses function-call event, a Gemini
//     functionCall): the events before it go on at once, re-encoded as
//     Apply writes an event it leaves alone; from it on the answer is held
//     and Apply'd whole at its end. Resplitting a call's arguments needs
//     the whole call, interleaving needs every call, no_index and
//     all_index_0 apply only if no call comes back after another started,
//     bad_args edits the last piece that has a '}': none of that is known
//     before the calls end;
//   - the answer: quirks whose edit reaches the first events or depends on
//     the last one (messages_usage_final_delta moves message_start's count
//     into the last delta, messages_prefilled_start, the Responses quirks
//     that rotate ids or drop response.created).
//
// A held answer is applied to a copy of the whole answer (the events
// already sent included), and the Stream checks that Apply's bytes begin
// with what it sent (by length and checksum: what was sent is not kept).
// Stream.Held says how many bytes of the answer a Stream keeps now, and
// Stream.LimitHeld bounds it: a Write that would take it past the bound
// returns ErrHoldLimit, drops what was held and cuts the answer there
// (nothing more is sent), so that an answer whose call never ends cannot
// grow a Stream without bound. A refusal (ErrNotApplicable, or an answer Apply cannot
// read) comes back from Write or Close with the held events as they came;
// the Stream then passes the rest through. One refusal comes late: a
// per-piece quirk that meets a call it does not fit (index_plus_1 and a
// call without an index) after it edited earlier calls has sent those
// edits, where Apply would have refused the whole answer; its error says
// so (no recorded answer or fixture mixes such calls).
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
