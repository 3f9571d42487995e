package conform

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// ErrUnknownCase is returned for a case name that is not in the catalog.
var ErrUnknownCase = errors.New("unknown case")

// A Tier groups cases that are reported apart.
type Tier string

// Tiers: stream shapes (the quirk catalog and broken streams), what the
// agent must echo (echo.go), transport faults, and the recorded mode's
// replays.
const (
	TierQuirk    Tier = "quirk"
	TierEcho     Tier = "echo"
	TierFault    Tier = "fault"
	TierRecorded Tier = "recorded"
	// TierWebSocket: the shapes of the Responses API's WebSocket
	// transport (websocket.go), run only for an agent that opens one.
	TierWebSocket Tier = "websocket"
)

// An Expect says what a correct agent does in a case.
type Expect int

const (
	// ExpectSame: the stream merges into the clean turn; the agent answers
	// every call and finishes with exit 0.
	ExpectSame Expect = iota
	// ExpectBadArgs: as ExpectSame, except that the first call's arguments
	// are not valid JSON (so they are not compared).
	ExpectBadArgs
	// ExpectBroken: the stream breaks in the middle of the tool turn, on
	// every attempt; nothing of it may be sent on, and the agent must not
	// exit 0.
	ExpectBroken
	// ExpectFault: the first attempt meets a transport fault, later ones the
	// clean turn; the agent may give up (exit non-zero) or retry and finish.
	ExpectFault
	// ExpectEcho: as ExpectSame, and every follow-up request sends back
	// what the stream carried for it (Case.Echo).
	ExpectEcho
	// ExpectFirstOrBroken: a second response follows the first one's end
	// in the same stream (responses_second_response). Stopping at the
	// first end and going on with its turn (judged as ExpectSame) and
	// refusing the stream (judged as ExpectBroken) are both right; sending
	// on anything of the second response is not (the case once failed
	// agents that stop reading at the first response.completed).
	ExpectFirstOrBroken
	// ExpectSameOrBroken: two events arrive in one WebSocket frame
	// (responses_ws_pair). Reading both (judged as ExpectSame) and refusing
	// the frame (judged as ExpectBroken) are both right; going on with a
	// turn that lacks what the frame carried is not.
	ExpectSameOrBroken
)

// Faults conform serves, on a case's first request only.
const (
	Fault429   = "429"   // HTTP 429 with Retry-After
	Fault500   = "500"   // HTTP 500
	FaultStall = "stall" // headers and a few events, then silence
	FaultReset = "reset" // the connection closed after a few events
)

// A Case is one way the clean conversation is served.
type Case struct {
	ID     string
	Tier   Tier
	Expect Expect
	// Source is where the shape was seen (issue numbers), for the reports.
	Source string
	// Doc says in one line what the case serves.
	Doc string
	// DropsIDs: the stream carries no call ids; the agent makes its own.
	DropsIDs bool
	// Transform rewrites an SSE body (the quirk, or the broken stream); nil
	// serves the clean stream.
	Transform func(body []byte, seed int64) ([]byte, error)
	// ToolTurnOnly applies Transform to the tool turn only (broken streams);
	// otherwise it applies to every turn, as the quirks do.
	ToolTurnOnly bool
	// Fault is served instead of the first attempt's answer ("" for none).
	Fault string
	// Echo names what ExpectEcho wants sent back: "thought_signature" or
	// "reasoning_content".
	Echo string
	// Delivered says which calls of the tool turn a broken stream delivered
	// whole before it broke (DeliveredAllButLast unless set).
	Delivered Delivered
	// Echoes: the transform adds what the agent must send back
	// (quirk.Quirk.Echoes), so recorded mode leaves the case out.
	Echoes bool
	// OnArguments: the transform edits the calls' argument text alone
	// (quirk.Quirk.OnArguments); on a probe whose calls carry "{}" the case
	// is SKIPPED as vacuous (vacuous.go).
	OnArguments bool
	// Markers are texts the case's transform adds that a correct agent
	// never shows or sends back: a decoy answer's words (garbage.go).
	Markers []string
	// File is the case file the case was read from (ReadCaseFiles); ""
	// for a case of the catalog.
	File string
	// Captured is a case file's captured stream (CapturedTurnFile), served
	// as it is for the turn with the calls; nil for every other case.
	Captured []byte
	// WebSocket is the ws-* fault of package serve the case applies on the
	// agent's WebSocket (websocket.go): a frame shape on every reply
	// (ws-split, ws-pair, ws-ping), a break of the first attempt's
	// (ws-close, ws-close-bare, ws-error), a continuation forgotten
	// (ws-forget) or the upgrade refused (ws-refuse). A case with one is
	// SKIPPED for an agent that opens no WebSocket.
	WebSocket string
	// NotOverWebSocket, when set, says why the case has no right answer
	// when its requests come as WebSocket frames: it is then SKIPPED.
	NotOverWebSocket string
	// Rechunk and Coalesce are how the server writes the case's stream
	// (serve.Route's): a framing's message split at every byte, or every
	// message in one write, shapes of the writes and not of the events.
	Rechunk  rechunk.Cutter
	Coalesce bool
}

// Delivered is how many calls of the tool turn a broken stream delivered
// whole: an agent may keep those (salvage, a WARNING) but not one it cut.
type Delivered int

const (
	// DeliveredAllButLast: the stream breaks inside the turn's last call.
	DeliveredAllButLast Delivered = iota
	// DeliveredNone: the stream breaks before or inside the first call.
	DeliveredNone
	// DeliveredFirst: the stream breaks right after its first call's end.
	DeliveredFirst
	// DeliveredAll: every call's end arrived (a Responses output_item.done
	// with the whole arguments), then the stream broke before the turn's end.
	DeliveredAll
)

// whole returns the calls of want that the case's broken stream delivered
// whole, in the stream's order.
func (c Case) whole(want []Call) []Call {
	switch c.Delivered {
	case DeliveredNone:
		return nil
	case DeliveredAll:
		return want
	case DeliveredFirst:
		return want[:min(len(want), 1)]
	}
	return want[:max(len(want)-1, 0)]
}

// sourceRe finds the last parenthesized part of a quirk's Doc.
var sourceRe = regexp.MustCompile(`\(([^()]*)\)\s*$`)

// Cases returns the catalog in report order: the clean turn, every
// chat-completions (or format-free) quirk of quirk.All, the compositions
// real gateways send (chatCompositions), the broken streams, the echo
// cases, then the faults.
func Cases() []Case {
	cases := []Case{{ID: "clean", Tier: TierQuirk, Source: "-", Doc: "the clean turn, as OpenAI streams it"}}
	for _, q := range quirk.All() {
		if q.API != "" && q.API != chat.Format.Name {
			continue // the Messages and Responses quirks are MessagesCases and ResponsesCases
		}
		c := quirkCase(q)
		if !q.Benign {
			c.Expect = ExpectBadArgs
		}
		// the other answer's decoy call only in the tool turn: a conclusion
		// carrying it fed the loop of agents that took it
		c.ToolTurnOnly = q.Name == "several_choices"
		cases = append(cases, c)
	}
	cases = append(cases, compositionCases(cases, chatCompositions)...)
	cases = append(cases,
		Case{ID: "midstream_error", Tier: TierQuirk, Expect: ExpectBroken, ToolTurnOnly: true, Transform: midstreamError,
			Source: "OpenRouter docs, langchainjs #11579",
			Doc:    "an error chunk (finish_reason \"error\") after the first call and half the second, then the end"},
		Case{ID: "truncated", Tier: TierQuirk, Expect: ExpectBroken, ToolTurnOnly: true, Transform: truncate,
			Source: "vercel/ai #19165",
			Doc:    "the stream ends in the middle of the second call: no finish_reason, no [DONE]"},
		Case{ID: "finish_length", Tier: TierQuirk, Expect: ExpectBroken, ToolTurnOnly: true, Transform: finishLength,
			Source: "goose #11838, strands-agents harness-sdk #4135",
			Doc:    `the output limit cuts the second call: a partial argument piece, then finish_reason "length" and [DONE]`})
	cases = append(cases, echoCases()...)
	return append(cases, faultCases("")...)
}

// quirkCase is the case of a quirk: ExpectSame, its source taken from the
// last parenthesized part of its Doc.
func quirkCase(q quirk.Quirk) Case {
	c := Case{ID: q.Name, Tier: TierQuirk, Doc: q.Doc, DropsIDs: q.DropsIDs, Transform: q.Apply, Source: "-", Markers: q.Markers, OnArguments: q.OnArguments, Echoes: q.Echoes}
	if m := sourceRe.FindStringSubmatch(q.Doc); m != nil {
		c.Source = m[1]
	}
	return c
}

// faultCases are the transport faults, every format's, their ids after
// prefix ("messages_fault_429").
func faultCases(prefix string) []Case {
	return []Case{
		{ID: prefix + "fault_429", Tier: TierFault, Expect: ExpectFault, Fault: Fault429,
			Source: "-", Doc: "HTTP 429 with Retry-After: 1 on the first request, then the clean turn"},
		{ID: prefix + "fault_500", Tier: TierFault, Expect: ExpectFault, Fault: Fault500,
			Source: "-", Doc: "HTTP 500 on the first request, then the clean turn"},
		{ID: prefix + "fault_stall", Tier: TierFault, Expect: ExpectFault, Fault: FaultStall,
			Source: "-", Doc: "the first stream stops after a few events and stays open: the agent must give up within -timeout"},
		{ID: prefix + "fault_reset", Tier: TierFault, Expect: ExpectFault, Fault: FaultReset,
			Source: "-", Doc: "the first stream's connection is closed after a few events, then the clean turn"},
	}
}

// SelectCases returns the cases named (all of them when names is empty), in
// catalog order, then the compositions of quirk cases named
// ("ids_dropped+args_one_rune": composedCase), in the order named.
func SelectCases(all []Case, names []string) ([]Case, error) {
	if len(names) == 0 {
		return all, nil
	}
	var ids []string
	for _, c := range all {
		ids = append(ids, c.ID)
	}
	var composed []Case
	for _, n := range names {
		switch {
		case slices.Contains(ids, n):
		case strings.Contains(n, quirk.Separator):
			c, err := composedCase(all, n)
			if err != nil {
				return nil, err
			}
			composed = append(composed, c)
		default:
			return nil, fmt.Errorf("%w %q: the cases are %s", ErrUnknownCase, n, strings.Join(ids, ", "))
		}
	}
	var out []Case
	for _, c := range all {
		if slices.Contains(names, c.ID) {
			out = append(out, c)
		}
	}
	return append(out, composed...), nil
}
