package serve

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
)

// A ScriptRouter routes a Server's cases to scripted conversations
// (gateway.Script, read from files by gateway.ReadScriptFile): "NAME"
// serves the script of that name, "NAME~QUIRK" the same under a quirk, ""
// the script the request's model names (the only one when there is one).
// Each request is answered in the format of its path, by that format's
// Write of the turn Script.Pick gives (by turn, or by the last user
// message), so one script answers a chat, a Messages, a Responses and a
// Gemini agent alike; a turn with a Status answers that HTTP error in the
// format's shape. A name no script has goes to Next (a CassetteRouter's
// Route) when it is set. Its Route method is a Server's Route; the fields
// must not change after the first call.
type ScriptRouter struct {
	Scripts []gateway.Script
	// Next routes the names no script has; nil answers them 404.
	Next func(name string) (*Route, error)
	// Quirk, when not "", is applied to every case that names none and
	// whose script names none.
	Quirk string
	// Seed is the quirk transforms' seed.
	Seed         int64
	Fault        Fault
	Pace         time.Duration
	Rechunk      rechunk.Cutter
	PaceRecorded bool
	Speed        float64

	routes sync.Map // case name -> *Route
}

// Route returns the route of a case name.
func (sr *ScriptRouter) Route(name string) (*Route, error) {
	if r, ok := sr.routes.Load(name); ok {
		return r.(*Route), nil
	}
	r, err := sr.build(name)
	if err != nil {
		return nil, err
	}
	actual, _ := sr.routes.LoadOrStore(name, r)
	return actual.(*Route), nil
}

func (sr *ScriptRouter) build(name string) (*Route, error) {
	base, quirkName, named := strings.Cut(name, QuirkSeparator)
	var picked []gateway.Script
	for _, s := range sr.Scripts {
		if base == "" || s.Name == base {
			picked = append(picked, s)
		}
	}
	if len(picked) == 0 {
		if sr.Next != nil {
			return sr.Next(name)
		}
		return nil, fmt.Errorf("case %q: %w; served scripts: %s", name, ErrUnknownCase, sr.names())
	}
	var models []string
	for _, s := range picked {
		models = append(models, s.Name)
	}
	sa := &scriptAnswer{scripts: picked, seed: sr.Seed, defaultQuirk: sr.Quirk}
	if named {
		q, err := lookupQuirk(name, quirkName)
		if err != nil {
			return nil, err
		}
		sa.quirk, sa.quirked = q, true
	}
	return &Route{Answer: sa.answer, Models: models, Fault: sr.Fault, Pace: sr.Pace, Rechunk: sr.Rechunk}, nil
}

// lookupQuirk is the quirk of a case name's ~QUIRK part.
func lookupQuirk(name, quirkName string) (quirk.Quirk, error) {
	q, err := quirk.Lookup(quirkName)
	switch {
	case errors.Is(err, quirk.ErrUnknown):
		return q, fmt.Errorf("case %q: %v: %w; quirks: %s", name, err, ErrUnknownCase, strings.Join(quirk.Names(), ", "))
	case err != nil: // a composition that cannot compose
		return q, fmt.Errorf("case %q: %v: %w", name, err, ErrUnknownCase)
	}
	return q, nil
}

func (sr *ScriptRouter) names() string {
	var names []string
	for _, s := range sr.Scripts {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// scriptAnswer answers one route's requests from its scripts.
type scriptAnswer struct {
	scripts []gateway.Script
	quirk   quirk.Quirk
	quirked bool // the case URL names a quirk (else each script's own, if any)
	// defaultQuirk is the router's Quirk, for a script that names none.
	defaultQuirk string
	seed         int64
}

func (sa *scriptAnswer) answer(r Request) (Reply, error) {
	api := wire.ForPath(r.Path)
	if api == nil {
		return Reply{}, fmt.Errorf("no format is served on %s", r.Path)
	}
	s, err := sa.script(r.Model)
	if err != nil {
		return Reply{}, err
	}
	if s.Format != "" && s.Format != api.Name {
		return Reply{}, fmt.Errorf("script %s is served in %s only (its format), and this request is %s", s.Name, s.Format, api.Name)
	}
	lastUser := ""
	if api.Decode != nil {
		if dec, err := api.Decode(r.Body); err == nil {
			lastUser = lastUserText(dec.Messages)
		}
	}
	turn, index, ok := s.Pick(max(r.Turn-1, 0), lastUser)
	if !ok {
		return Reply{}, fmt.Errorf("script %s: no turn answers request %d (turn %d, last user message %.60q)", s.Name, r.Seq, r.Turn, lastUser)
	}
	from := fmt.Sprintf("script %s turn %d", s.Name, index+1)
	if turn.Status != 0 {
		h := http.Header{}
		h.Set("Content-Type", "application/json")
		return Reply{Status: turn.Status, Header: h, Body: append(api.ErrorBody(turn.Status, "scripted", gateway.StatusText(turn.Status)), '\n'), From: from}, nil
	}
	body := []byte(strings.Join(gateway.Stream(api, r.Model, s.Name, index, turn), ""))
	q, quirked := sa.quirk, sa.quirked
	if own := cmp.Or(s.Quirk, sa.defaultQuirk); !quirked && own != "" {
		var err error
		if q, err = quirk.Lookup(own); err != nil {
			return Reply{}, fmt.Errorf("script %s: quirk %s: %w", s.Name, own, err)
		}
		quirked = true
	}
	if quirked {
		out, err := q.Apply(body, sa.seed+int64(index))
		switch {
		case errors.Is(err, quirk.ErrNotApplicable):
		case err != nil:
			return Reply{}, fmt.Errorf("script %s turn %d under %s: %w", s.Name, index+1, q.Name, err)
		default:
			body = out
			from += " ~" + q.Name
		}
	}
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return Reply{Header: h, Body: body, Events: sse.SplitEvents(body), From: from}, nil
}

// script is the script a request is for: the only one, or the one its
// model names.
func (sa *scriptAnswer) script(model string) (gateway.Script, error) {
	if len(sa.scripts) == 1 {
		return sa.scripts[0], nil
	}
	for _, s := range sa.scripts {
		if s.Name == model {
			return s, nil
		}
	}
	var names []string
	for _, s := range sa.scripts {
		names = append(names, s.Name)
	}
	return gateway.Script{}, fmt.Errorf("no script is named %q (the request's model): name one of %s, or use its URL /s/NAME/v1", model, strings.Join(names, ", "))
}

// lastUserText is the text of the last user message.
func lastUserText(msgs []agent.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == agent.RoleUser {
			return msgs[i].Content
		}
	}
	return ""
}
