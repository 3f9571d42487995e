package quirk

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/gemini"
)

// geminiQuirks returns the transforms of a clean Gemini stream (as
// gemini.Write sends it: text parts, then every call whole in one event,
// the finishReason and usage in the last) into the shapes Gemini and the
// proxies in front of it send, benign ones first. Their names start with
// "gemini_".
func geminiQuirks() []Quirk {
	qs := []Quirk{
		{Name: "gemini_call_ids_dropped", compose: aspects{edits: aIDs, rewrites: aComments}, streaming: gemCalls, Benign: true, DropsIDs: true, Apply: gemEdit(dropCallIDs),
			Doc: "functionCall parts without an id, as the Gemini API sends them; the client makes its own (the Gemini API, Gemini CLI 0.61.0)"},
		{Name: "gemini_calls_across_events", compose: aspects{edits: aPieces, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(callsAcrossEvents),
			Doc: "each call whole in its own event instead of one part list (bug-ops/zeph PR 1767)"},
		{Name: "gemini_args_split_name_first", compose: aspects{edits: aPieces | aNames, rewrites: aComments}, streaming: gemCalls, Benign: true, Warns: true, Apply: gemEdit(splitArgsNameFirst),
			Doc: "a call's name with empty args first, its args in a later part without a name (smallmain/vscode-unify-chat-provider PR 49)"},
		{Name: "gemini_empty_candidate", compose: aspects{edits: aEmpty, rewrites: aComments}, streaming: gemLast, Benign: true, Apply: gemEdit(emptyCandidate),
			Doc: "an event whose candidate has neither content nor finishReason before the last one (keep-alive chunks of translating proxies)"},
		{Name: "gemini_finish_alone", compose: aspects{edits: aFinish, rewrites: aComments}, streaming: gemLast, Benign: true, Apply: gemEdit(finishAlone),
			Doc: "the finishReason and usage in a last event of their own with an empty text part (Gemini 2.5 streams)"},
		{Name: "gemini_args_streamed", OnArguments: true, compose: aspects{edits: aPieces, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(streamArgs(streamedOptions{split: wholeString})),
			Doc: "each call's arguments streamed by JSON path: the named part says willContinue, one partialArgs piece per value, an empty functionCall part ends it (Vertex AI streamFunctionCallArguments, Gemini 3)"},
		{Name: "gemini_args_streamed_one_rune", OnArguments: true, compose: aspects{edits: aPieces, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(streamArgs(streamedOptions{split: runeByRune})),
			Doc: "streamed arguments whose strings come one rune a piece (Vertex AI streamFunctionCallArguments, pieces as the model writes them)"},
		{Name: "gemini_args_streamed_split_escapes", OnArguments: true, compose: aspects{edits: aPieces, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(streamArgs(streamedOptions{split: atEscapes})),
			Doc: "streamed arguments cut before and after every quote, backslash and rune beyond ASCII, each in a piece of its own (Vertex AI streamFunctionCallArguments)"},
		{Name: "gemini_args_streamed_out_of_order", OnArguments: true, compose: aspects{edits: aPieces | aOrder, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(streamArgs(streamedOptions{split: atEscapes, interleaved: true})),
			Doc: "streamed arguments whose values' pieces interleave: a string's pieces come between another's (Vertex AI FunctionCall.partialArgs: each piece names its own path)"},
		{Name: "gemini_args_streamed_ids_repeated", OnArguments: true, compose: aspects{edits: aPieces | aPieceIDs | aPieceNames, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(streamArgs(streamedOptions{split: atEscapes, repeat: true})),
			Doc: "streamed calls one after the other, each part repeating the call's id and name, each call ended by a part without willContinue instead of an empty one (Vertex AI streams of parallel calls)"},
		{Name: "gemini_signature_first_only", Echoes: true, compose: aspects{edits: aReasoning, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(signatureFirstOnly),
			Doc: "a thoughtSignature on the first of parallel calls only (Google's thought-signatures guide: Gemini 3 sends one per turn)"},
		{Name: "gemini_signature_empty_text", Echoes: true, compose: aspects{edits: aReasoning | aContent, rewrites: aComments}, streaming: gemCalls, Benign: true, Apply: gemEdit(signatureOnEmptyText),
			Doc: "the turn's thoughtSignature on an empty text part of its own before the calls (Google's thought-signatures guide)"},
		{Name: "gemini_chunks_after_finish", compose: aspects{edits: aEmpty | aUsage, rewrites: aComments}, streaming: gemLast, Benign: true, Apply: gemEdit(chunksAfterFinish),
			Doc: "events after the finishReason: the usage alone, then a candidate with neither content nor finishReason (code-execution answers go on after a finishReason)"},
		{Name: "gemini_second_candidate", compose: aspects{edits: aChoices, rewrites: aComments, closes: callAspects | aContent | aFinish | aChoices}, streaming: gemAfterFirst, Benign: true, Warns: true, Apply: gemEdit(secondCandidate),
			Markers: []string{secondCandidateText, "decoy/**"},
			Doc:     "a second candidate (index 1) interleaved with the first: its text and a decoy glob call, which no correct client shows, sends back or runs (candidateCount 2)"},
		{Name: "gemini_lf", compose: aspects{edits: aLineEnds}, streaming: eachEvent, Benign: true, Apply: func(body []byte, _ int64) ([]byte, error) { return sse.Format(sse.Parse(body), "\n"), nil },
			Doc: "LF line ends instead of Google's CRLF (proxies that re-frame the stream)"},
		{Name: "gemini_error_midstream", compose: aspects{edits: aEnd, rewrites: aComments, closes: afterEnd}, streaming: gemAfterFirst, Benign: false, Apply: gemEdit(geminiErrorMidstream),
			Doc: `an error object {"code":503,"status":"UNAVAILABLE"} after HTTP 200 and the first event, then the end (an overloaded model mid-answer)`},
		{Name: "gemini_malformed_function_call", compose: aspects{edits: aEnd | aFinish, rewrites: aComments, closes: afterEnd}, streaming: gemCalls, Benign: false, Apply: gemEdit(malformedCall),
			Doc: "the event with the calls replaced by an empty candidate with finishReason MALFORMED_FUNCTION_CALL (pydantic/pydantic-ai PR 3300)"},
		{Name: "gemini_args_streamed_cut", compose: aspects{edits: aEnd | aPieces, rewrites: aComments, closes: afterEnd}, streaming: gemCalls, Benign: false, Apply: gemEdit(streamArgsCut),
			Doc: "streamed arguments, and the connection drops two parts into the last call: its end part and the finishReason never come (a dropped connection mid-call)"},
		{Name: "gemini_error_line", compose: aspects{edits: aEnd, rewrites: aComments, closes: afterEnd}, streaming: gemAfterFirst, Benign: false, Apply: errorLine,
			Doc: `the first event, then Google's error object {"code":499,"status":"CANCELLED"} on a bare line, not framed as an event (a request cancelled mid-stream; Google's SDKs stop with it)`},
		{Name: "gemini_malformed_after_call", compose: aspects{edits: aEnd | aFinish, rewrites: aComments, closes: afterEnd}, streaming: gemCalls, Benign: false, Apply: gemEdit(malformedAfterCall),
			Doc: "the calls whole, then finishReason MALFORMED_FUNCTION_CALL with a finishMessage: the calls the model made are invalid and none may run (Gemini's FinishReason reference)"},
		{Name: "gemini_prompt_blocked", compose: aspects{edits: aEnd | aContent, rewrites: aComments, closes: afterEnd}, Benign: false, Apply: gemEdit(promptBlocked),
			Doc: "the prompt blocked: one event with promptFeedback.blockReason PROHIBITED_CONTENT and no candidate (Gemini's promptFeedback reference)"},
		{Name: "gemini_cut_before_finish", compose: aspects{edits: aEnd, rewrites: aComments, closes: afterEnd}, streaming: gemLast, Benign: false, Apply: gemEdit(cutLast),
			Doc: "the connection drops before the last event, which carries the calls whole and the finishReason: neither arrives"},
	}
	for i := range qs {
		qs[i].API = gemini.Format.Name
	}
	return qs
}

// gemEdit applies edit to the stream's events, parsed; the result is framed
// with CRLF as Google frames it.
func gemEdit(edit func(evs []*jsonObject) ([]*jsonObject, error)) func([]byte, int64) ([]byte, error) {
	return func(body []byte, _ int64) ([]byte, error) {
		var evs []*jsonObject
		for _, ev := range sse.Parse(body) {
			if !ev.HasData {
				continue
			}
			o, err := parseJSONObject(ev.Data)
			if err != nil {
				return nil, fmt.Errorf("event %q: %w", ev.Data, err)
			}
			evs = append(evs, o)
		}
		out, err := edit(evs)
		if err != nil {
			return nil, err
		}
		var events []sse.Event
		for _, o := range out {
			b, err := o.MarshalJSON()
			if err != nil {
				return nil, err
			}
			events = append(events, sse.Event{Data: string(b), HasData: true})
		}
		return sse.Format(events, "\r\n"), nil
	}
}

// candidate is the first candidate of an event, nil when none.
func candidate(ev *jsonObject) *jsonObject {
	cs := ev.array("candidates")
	if len(cs) == 0 {
		return nil
	}
	c, _ := cs[0].(*jsonObject)
	return c
}

// parts is the first candidate's parts.
func parts(ev *jsonObject) []any {
	c := candidate(ev)
	if c == nil || c.object("content") == nil {
		return nil
	}
	return c.object("content").array("parts")
}

func setParts(ev *jsonObject, ps []any) { candidate(ev).object("content").set("parts", ps) }

// callEvent is the index of the event whose parts hold functionCalls.
func callEvent(evs []*jsonObject) int {
	for i, ev := range evs {
		for _, p := range parts(ev) {
			if po, ok := p.(*jsonObject); ok && po.object("functionCall") != nil {
				return i
			}
		}
	}
	return -1
}

func dropCallIDs(evs []*jsonObject) ([]*jsonObject, error) {
	for _, ev := range evs {
		for _, p := range parts(ev) {
			if fc := p.(*jsonObject).object("functionCall"); fc != nil {
				fc.del("id")
			}
		}
	}
	return evs, nil
}

// callsAcrossEvents puts each call part of the call event in an event of its
// own; the finishReason and usage stay on the last.
func callsAcrossEvents(evs []*jsonObject) ([]*jsonObject, error) {
	i := callEvent(evs)
	if i < 0 || len(parts(evs[i])) < 2 {
		return evs, nil
	}
	var out []*jsonObject
	ps := parts(evs[i])
	for k, p := range ps {
		ev := evs[i].clone()
		setParts(ev, []any{p})
		if k < len(ps)-1 {
			candidate(ev).del("finishReason")
			ev.del("usageMetadata")
		}
		out = append(out, ev)
	}
	return append(append(evs[:i:i], out...), evs[i+1:]...), nil
}

// splitArgsNameFirst sends the first call as {name, args: {}} and then
// {args} without a name in an event of its own.
func splitArgsNameFirst(evs []*jsonObject) ([]*jsonObject, error) {
	i := callEvent(evs)
	if i < 0 {
		return evs, nil
	}
	ps := parts(evs[i])
	first := ps[0].(*jsonObject).clone()
	args, _ := first.object("functionCall").get("args")
	if a, ok := args.(*jsonObject); !ok || len(a.members) == 0 {
		return nil, fmt.Errorf("the first call's args are empty or not an object: %w", ErrNotApplicable)
	}
	head := evs[i].clone()
	first.object("functionCall").set("args", &jsonObject{})
	setParts(head, []any{first})
	candidate(head).del("finishReason")
	head.del("usageMetadata")
	rest := &jsonObject{}
	rest.set("args", args)
	tail := &jsonObject{}
	tail.set("functionCall", rest)
	setParts(evs[i], append([]any{tail}, ps[1:]...))
	return append(append(evs[:i:i], head), evs[i:]...), nil
}

func emptyCandidate(evs []*jsonObject) ([]*jsonObject, error) {
	last := len(evs) - 1
	if last < 0 {
		return nil, fmt.Errorf("no event: %w", ErrNotApplicable)
	}
	ev := evs[last].clone()
	c := &jsonObject{}
	c.set("index", json.Number("0"))
	ev.set("candidates", []any{c})
	ev.del("usageMetadata")
	return append(append(evs[:last:last], ev), evs[last]), nil
}

func finishAlone(evs []*jsonObject) ([]*jsonObject, error) {
	last := len(evs) - 1
	if last < 0 || candidate(evs[last]) == nil || candidate(evs[last]).object("content") == nil {
		// an answer ending in an error object or an empty candidate once made this panic
		return nil, fmt.Errorf("the last event has no candidate content: %w", ErrNotApplicable)
	}
	end := evs[last].clone()
	text := &jsonObject{}
	text.set("text", "")
	setParts(end, []any{text})
	candidate(evs[last]).del("finishReason")
	evs[last].del("usageMetadata")
	return append(evs, end), nil
}

func geminiErrorMidstream(evs []*jsonObject) ([]*jsonObject, error) {
	e, err := parseJSONObject(string(gemini.ErrorBody(503, "", "The model is overloaded. Please try again later.")))
	if err != nil {
		return nil, err
	}
	return []*jsonObject{evs[0], e}, nil
}

func malformedCall(evs []*jsonObject) ([]*jsonObject, error) {
	i := callEvent(evs)
	if i < 0 {
		return nil, fmt.Errorf("no call to break: %w", ErrNotApplicable)
	}
	c := &jsonObject{}
	c.set("finishReason", "MALFORMED_FUNCTION_CALL")
	c.set("index", json.Number("0"))
	evs[i].set("candidates", []any{c})
	return evs, nil
}

func cutLast(evs []*jsonObject) ([]*jsonObject, error) {
	if len(evs) == 0 {
		return nil, fmt.Errorf("no event: %w", ErrNotApplicable)
	}
	return evs[:len(evs)-1], nil
}
