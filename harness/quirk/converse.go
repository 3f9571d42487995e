package quirk

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/converse"
)

// converseQuirks are the shapes of a ConverseStream answer. Each edits the
// events (the logical form) and gives the stream back in the form it came
// in: events as events (serve frames them), a framed answer framed (the
// chaos proxy's).
func converseQuirks() []Quirk {
	qs := []Quirk{
		{Name: "converse_padding", compose: aspects{edits: aUnknown}, Benign: true, Apply: converseEdit(padEvents),
			Doc: `every event's payload carries a "p" member of letters, the padding Bedrock adds against length side channels (Amazon Bedrock runtime)`},
		{Name: "converse_input_whole", compose: aspects{edits: aPieces}, Benign: true, OnArguments: true, Apply: converseEdit(inputWhole),
			Doc: "each toolUse input in one contentBlockDelta, not in pieces (translating gateways buffer it)"},
		{Name: "converse_end_turn_with_calls", compose: aspects{edits: aFinish}, Benign: true, Apply: converseEdit(converseEndTurn),
			Doc: `stopReason "end_turn" although toolUse blocks were sent (OpenAI-to-Converse translators)`},
		{Name: "converse_unknown_event", compose: aspects{edits: aUnknown}, Benign: true, Apply: converseEdit(unknownConverseEvent),
			Doc: "an event of a type the client was not built with before messageStop (an AWS event stream may add event types)"},
		{Name: "converse_throttled_midstream", compose: aspects{edits: aEnd, closes: afterEnd}, Benign: false, Apply: converseEdit(throttledMidstream),
			Doc: "a throttlingException inside the first toolUse's input, after HTTP 200, then the end (Amazon Bedrock runtime)"},
		{Name: "converse_cut_before_stop", compose: aspects{edits: aEnd, closes: afterEnd}, Benign: false, Apply: converseEdit(cutInLastCall),
			Doc: "the connection drops inside the last toolUse's input: no contentBlockStop, no messageStop"},
	}
	for i := range qs {
		qs[i].API = converse.Format.Name
	}
	return qs
}

// cvEvent is one event of the logical form: its type and its payload.
type cvEvent struct {
	typ     string
	payload map[string]any
	raw     sse.Event // an event that is not the union (an error) kept as it is
}

// converseEdit applies edit to the events of a Converse stream and gives
// the stream back in the form it came in.
func converseEdit(edit func(evs []cvEvent, seed int64) ([]cvEvent, error)) func([]byte, int64) ([]byte, error) {
	f := converse.Format
	return func(body []byte, seed int64) ([]byte, error) {
		framed := f.Framing.IsFramed(body)
		logical := body
		if framed {
			logical, _ = io.ReadAll(f.LogicalStream(strings.NewReader(string(body))))
		}
		if got := wire.Detect(logical); got != f {
			return nil, fmt.Errorf("a %s stream, not converse: %w", got.Name, ErrNotApplicable)
		}
		var evs []cvEvent
		for _, ev := range sse.Parse(logical) {
			var union map[string]map[string]any
			if ev.Name != "error" && json.Unmarshal([]byte(ev.Data), &union) == nil && len(union) == 1 {
				for typ, payload := range union {
					evs = append(evs, cvEvent{typ: typ, payload: payload})
				}
				continue
			}
			evs = append(evs, cvEvent{raw: ev})
		}
		evs, err := edit(evs, seed)
		if err != nil {
			return nil, err
		}
		var out []sse.Event
		for _, e := range evs {
			if e.typ == "" {
				out = append(out, e.raw)
				continue
			}
			data, _ := json.Marshal(map[string]any{e.typ: e.payload})
			out = append(out, sse.Event{Name: e.typ, Data: string(data), HasData: true})
		}
		text := sse.Format(out, "\n")
		if framed {
			return sse.Framed(f, text), nil
		}
		return text, nil
	}
}

// index is an event's contentBlockIndex, -1 when it has none.
func (e cvEvent) index() int {
	if n, ok := e.payload["contentBlockIndex"].(float64); ok {
		return int(n)
	}
	return -1
}

// toolInput is a toolUse delta's input piece and whether the event is one.
func (e cvEvent) toolInput() (string, bool) {
	if e.typ != "contentBlockDelta" {
		return "", false
	}
	d, _ := e.payload["delta"].(map[string]any)
	u, ok := d["toolUse"].(map[string]any)
	if !ok {
		return "", false
	}
	s, _ := u["input"].(string)
	return s, true
}

// callBlocks are the block indexes that start a toolUse, in order.
func callBlocks(evs []cvEvent) []int {
	var out []int
	for _, e := range evs {
		if e.typ != "contentBlockStart" {
			continue
		}
		if start, _ := e.payload["start"].(map[string]any); start["toolUse"] != nil {
			out = append(out, e.index())
		}
	}
	return out
}

func padEvents(evs []cvEvent, seed int64) ([]cvEvent, error) {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
	rng := rechunk.NewRand(seed)
	for i := range evs {
		if evs[i].typ != "" {
			evs[i].payload["p"] = letters[:4+rng.Intn(len(letters)-3)]
		}
	}
	return evs, nil
}

func inputWhole(evs []cvEvent, _ int64) ([]cvEvent, error) {
	if len(callBlocks(evs)) == 0 {
		return nil, fmt.Errorf("no toolUse block: %w", ErrNotApplicable)
	}
	whole := map[int]string{}
	for _, e := range evs {
		if s, ok := e.toolInput(); ok {
			whole[e.index()] += s
		}
	}
	var out []cvEvent
	done := map[int]bool{}
	for _, e := range evs {
		if _, ok := e.toolInput(); ok {
			if done[e.index()] {
				continue
			}
			done[e.index()] = true
			e.payload["delta"] = map[string]any{"toolUse": map[string]any{"input": whole[e.index()]}}
		}
		out = append(out, e)
	}
	return out, nil
}

func converseEndTurn(evs []cvEvent, _ int64) ([]cvEvent, error) {
	if len(callBlocks(evs)) == 0 {
		return nil, fmt.Errorf("no toolUse block: %w", ErrNotApplicable)
	}
	for i := range evs {
		if evs[i].typ == "messageStop" {
			evs[i].payload["stopReason"] = "end_turn"
		}
	}
	return evs, nil
}

func unknownConverseEvent(evs []cvEvent, _ int64) ([]cvEvent, error) {
	for i, e := range evs {
		if e.typ == "messageStop" {
			extra := cvEvent{typ: "agentvcrUnknownEvent", payload: map[string]any{"note": "an event type no client knows"}}
			return append(evs[:i:i], append([]cvEvent{extra}, evs[i:]...)...), nil
		}
	}
	return nil, fmt.Errorf("no messageStop: %w", ErrNotApplicable)
}

// cutInCall cuts the stream after the first non-empty input piece of
// block (and puts tail there, when it is set).
func cutInCall(evs []cvEvent, block int, tail *cvEvent) ([]cvEvent, error) {
	for i, e := range evs {
		if s, ok := e.toolInput(); ok && e.index() == block && s != "" {
			out := evs[: i+1 : i+1]
			if tail != nil {
				out = append(out, *tail)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("no toolUse input to break the stream in: %w", ErrNotApplicable)
}

func throttledMidstream(evs []cvEvent, _ int64) ([]cvEvent, error) {
	blocks := callBlocks(evs)
	if len(blocks) == 0 {
		return nil, fmt.Errorf("no toolUse block: %w", ErrNotApplicable)
	}
	tail := cvEvent{raw: sse.Event{Name: "error", HasData: true,
		Data: `{"type":"throttlingException","message":"Too many requests, please wait before trying again."}`}}
	return cutInCall(evs, blocks[0], &tail)
}

func cutInLastCall(evs []cvEvent, _ int64) ([]cvEvent, error) {
	blocks := callBlocks(evs)
	if len(blocks) == 0 {
		return nil, fmt.Errorf("no toolUse block: %w", ErrNotApplicable)
	}
	return cutInCall(evs, blocks[len(blocks)-1], nil)
}
