package conform

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/gemini"
)

// geminiFormat is Gemini's native API. Its requests read through the
// format's own server view (gemini.Decode: the contents' invariant is
// checked there, and a broken one fails the request with its reason), the
// model and the stream flag from the path; a non-streamed side request
// (Gemini CLI's routing classifier) is answered apart (answerSide).
var geminiFormat = Format{Format: gemini.Format, Read: readGemini, cases: GeminiCases, cut: geminiCutPoint,
	renumber: renumberGemini, dir: "gemini", side: answerSide}

// GeminiCases returns the Gemini catalog in report order: the clean turn,
// every quirk of quirk.OfAPI (the broken ones on the tool turn only, on
// every attempt), the thought-signature echo, then the faults.
func GeminiCases() []Case {
	cases := []Case{{ID: "gemini_clean", Tier: TierQuirk, Source: "-", Doc: "the clean turn, as Gemini streams it (the calls whole in one event)"}}
	for _, q := range quirk.OfAPI(gemini.Format.Name) {
		c := quirkCase(q)
		if !q.Benign {
			// Gemini sends the calls whole in one event: a stream broken
			// before it delivered none; a streamed call ends at its own end
			// part, so a stream cut inside the last one delivered the
			// others whole (salvage may keep them)
			c.Expect, c.ToolTurnOnly, c.Delivered = ExpectBroken, true, DeliveredNone
			if q.Name == "gemini_args_streamed_cut" {
				c.Delivered = DeliveredAllButLast
			}
		}
		cases = append(cases, c)
	}
	cases = append(cases, Case{ID: "gemini_echo_signature", Tier: TierEcho, Expect: ExpectEcho, Echo: echoPartSignature, Transform: addPartSignatures,
		Source: "ai.google.dev thought-signatures, snow-cli #104",
		Doc:    "each functionCall part carries a thoughtSignature; later requests must send it back on that part (Gemini answers 400 without it)"})
	return append(cases, faultCases("gemini_")...)
}

// echoPartSignature names what gemini_echo_signature wants back: each
// call's thoughtSignature on its part (read into Call.Extra in the shape of
// chat's extra_content, so checkEcho compares both alike).
const echoPartSignature = "thoughtSignature"

// readGemini reads a Gemini request body into conform's Request.
func readGemini(body []byte) (Request, error) {
	var w struct {
		Contents json.RawMessage `json:"contents"`
		Tools    []struct {
			FunctionDeclarations []struct {
				Name                 string          `json:"name"`
				Parameters           json.RawMessage `json:"parameters"`
				ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, fmt.Errorf("%w: %w", ErrNotARequest, err)
	}
	if w.Contents == nil {
		return Request{}, fmt.Errorf("%w: no \"contents\" array", ErrNotARequest)
	}
	dec, err := gemini.Decode(body)
	if err != nil {
		return Request{}, err
	}
	r := Request{Body: body}
	for _, t := range w.Tools {
		for _, d := range t.FunctionDeclarations {
			schema := d.ParametersJSONSchema
			if schema == nil {
				schema = d.Parameters
			}
			r.Tools = append(r.Tools, Tool{Name: d.Name, Schema: schema})
		}
	}
	for _, m := range dec.Messages {
		msg := Message{Role: m.Role, Text: m.Content, CallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			msg.Calls = append(msg.Calls, Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments, Extra: c.ExtraContent})
		}
		r.Messages = append(r.Messages, msg)
	}
	return r, nil
}

// geminiCutPoint is cutPoint for a Gemini stream: the calls come whole, so
// the stream stops right before the event that carries them.
func geminiCutPoint(events []sse.Event) (int, error) {
	for i, ev := range events {
		if ev.HasData && hasFunctionCall(ev.Data) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no functionCall to stop the stream before: %w", quirk.ErrNotApplicable)
}

func hasFunctionCall(data string) bool {
	chunk, ok := decodeChunk(sse.Event{Data: data, HasData: true})
	if !ok {
		return false
	}
	for _, c := range asSlice(chunk["candidates"]) {
		for _, p := range asSlice(asMap(asMap(c)["content"])["parts"]) {
			if asMap(p)["functionCall"] != nil {
				return true
			}
		}
	}
	return false
}

// addPartSignatures gives every functionCall part a thoughtSignature,
// numbered in stream order (signatureFor).
func addPartSignatures(body []byte, _ int64) ([]byte, error) {
	events := sse.Parse(body)
	k := 0
	for i, ev := range events {
		chunk, ok := decodeChunk(ev)
		if !ok {
			continue
		}
		changed := false
		for _, c := range asSlice(chunk["candidates"]) {
			for _, p := range asSlice(asMap(asMap(c)["content"])["parts"]) {
				if part := asMap(p); part["functionCall"] != nil {
					part["thoughtSignature"] = signatureFor(k)
					k++
					changed = true
				}
			}
		}
		if changed {
			if err := encodeChunk(&events[i], chunk); err != nil {
				return nil, err
			}
		}
	}
	if k == 0 {
		return nil, fmt.Errorf("no call to sign: %w", quirk.ErrNotApplicable)
	}
	return sse.Format(events, "\r\n"), nil
}

// renumberGemini numbers each functionCall by its position in the
// conversation and gives each functionResponse id the number of the call it
// answers by position (Gemini matches them by order, and a client may make
// up its own response ids, Gemini CLI from the clock); a missing id stays
// missing.
func renumberGemini(top map[string]any) {
	n := 0
	var last []string // the numbers of the last model content's calls
	for _, ct := range asSlice(top["contents"]) {
		content := asMap(ct)
		if content["role"] == "model" {
			last = nil
		}
		k := 0
		for _, p := range asSlice(content["parts"]) {
			part := asMap(p)
			if fc := asMap(part["functionCall"]); fc != nil {
				n++
				last = append(last, "#"+strconv.Itoa(n))
				if _, ok := fc["id"]; ok {
					fc["id"] = last[len(last)-1]
				}
			}
			if fr := asMap(part["functionResponse"]); fr != nil {
				if _, ok := fr["id"]; ok {
					fr["id"] = "(no call)"
					if k < len(last) {
						fr["id"] = last[k]
					}
				}
				k++
			}
		}
	}
}

// readPath lays what the path says over a request read from its body: the
// model and the stream flag, for a format whose path carries them.
func (f Format) readPath(path string, r Request) Request {
	if f.PathModel != nil {
		r.Model, r.Streams = f.PathModel(path)
	}
	return r
}
