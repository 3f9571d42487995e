package responsesws

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// ErrPreviousNotFound is Resolve's error for a previous_response_id the
// connection does not hold: the API answers it with the error frame
// PreviousNotFound writes, and the client sends its whole input again.
var ErrPreviousNotFound = errors.New("previous response not found")

// DefaultHeld is how many responses a Held keeps when its Max is 0: a
// continuation names the last one, so a few are plenty, and a client that
// sends thousands of responses on one connection holds no more than these.
const DefaultHeld = 8

// A Held is what one connection's responses held: for each response id,
// the context it was answered in and its output items, so that a
// continuation (previous_response_id) stands for the whole conversation.
// The API keeps it per connection even when the request says store: false;
// so does a Held. Not safe for concurrent use: one connection's cycles run
// one after the other.
type Held struct {
	// Max bounds the responses kept (DefaultHeld when 0); the oldest goes
	// first.
	Max   int
	order []string
	items map[string][]json.RawMessage
}

// Resolve returns the whole input a frame stands for: the held context and
// output of its previous response, then its own input.
func (h *Held) Resolve(f Frame) ([]json.RawMessage, error) {
	if f.PreviousResponseID == "" {
		return f.Input, nil
	}
	prev, ok := h.items[f.PreviousResponseID]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrPreviousNotFound, f.PreviousResponseID)
	}
	return append(append([]json.RawMessage(nil), prev...), f.Input...), nil
}

// Keep holds a response: its id and output read from the stream that
// answered it (ResponseID, OutputItems), after input, the whole input it
// answered. A stream with no response id holds nothing.
func (h *Held) Keep(input []json.RawMessage, stream []byte) {
	id := ResponseID(stream)
	if id == "" {
		return
	}
	if h.items == nil {
		h.items = map[string][]json.RawMessage{}
	}
	if _, ok := h.items[id]; !ok {
		h.order = append(h.order, id)
	}
	h.items[id] = append(append([]json.RawMessage(nil), input...), OutputItems(stream)...)
	max := h.Max
	if max <= 0 {
		max = DefaultHeld
	}
	for len(h.order) > max {
		delete(h.items, h.order[0])
		h.order = h.order[1:]
	}
}

// Len is how many responses h holds.
func (h *Held) Len() int { return len(h.order) }

// streamEvent is what Keep reads of a Responses stream event.
type streamEvent struct {
	Type     string `json:"type"`
	Response *struct {
		ID     string            `json:"id"`
		Output []json.RawMessage `json:"output"`
	} `json:"response"`
	OutputIndex *int            `json:"output_index"`
	Item        json.RawMessage `json:"item"`
}

// ResponseID is the id of the response a Responses stream carries (its
// response.created, or any event with a response), "" when none says.
func ResponseID(stream []byte) string {
	for _, e := range sse.Parse(stream) {
		var ev streamEvent
		if json.Unmarshal([]byte(e.Data), &ev) == nil && ev.Response != nil && ev.Response.ID != "" {
			return ev.Response.ID
		}
	}
	return ""
}

// OutputItems are the output items of the first response of a Responses
// stream (what follows its end belongs to no request of the connection's):
// its response.completed's (or incomplete's) output when it lists any, else
// every response.output_item.done's item in output_index order (a stream
// cut before its end holds the items that were done).
func OutputItems(stream []byte) []json.RawMessage {
	type done struct {
		index int
		item  json.RawMessage
	}
	var dones []done
	items := func() []json.RawMessage {
		sort.SliceStable(dones, func(a, b int) bool { return dones[a].index < dones[b].index })
		out := make([]json.RawMessage, len(dones))
		for i, d := range dones {
			out[i] = d.item
		}
		return out
	}
	for _, e := range sse.Parse(stream) {
		var ev streamEvent
		if json.Unmarshal([]byte(e.Data), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "response.completed", "response.incomplete", "response.failed":
			if ev.Response != nil && len(ev.Response.Output) > 0 {
				return ev.Response.Output
			}
			return items()
		case "response.output_item.done":
			if len(ev.Item) == 0 {
				continue
			}
			i := len(dones)
			if ev.OutputIndex != nil {
				i = *ev.OutputIndex
			}
			dones = append(dones, done{i, ev.Item})
		}
	}
	return items()
}
