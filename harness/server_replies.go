package harness

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// MatchMode is how Replies finds the recorded reply to a request.
type MatchMode int

const (
	// MatchBody serves the first interaction whose method, path and
	// canonical JSON body equal the request's (the replay's matcher).
	MatchBody MatchMode = iota
	// MatchTurn serves the reply recorded for the request with as many
	// assistant messages, whatever the rest of the body says.
	MatchTurn
)

var matchModeNames = []string{"body", "turn"}

// String is the mode's name as ParseMatchMode reads it.
func (m MatchMode) String() string {
	if m < 0 || int(m) >= len(matchModeNames) {
		return fmt.Sprintf("MatchMode(%d)", int(m))
	}
	return matchModeNames[m]
}

// ParseMatchMode reads "body" or "turn".
func ParseMatchMode(s string) (MatchMode, error) {
	for i, n := range matchModeNames {
		if n == s {
			return MatchMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown match mode %q (want body or turn)", s)
}

// A ServedCassette is a go-vcr v2.1.0 cassette's bytes (the YAML as saved)
// and the name it is served under.
type ServedCassette struct {
	Name string
	Data []byte
}

// Replies answers chat-completions requests from recorded interactions,
// any number of times each: the Reply of a Route. It is read-only once
// made, so any number of requests may use it at once.
type Replies struct {
	name   string
	match  MatchMode
	items  []servedItem
	keys   []requestKey
	exact  map[string]int // raw recorded body -> first item with it
	canon  map[string]int // canonical key -> first item with it
	models []string
	single bool // every item comes from one cassette
}

type servedItem struct {
	model string
	turn  int
	reply ServeReply
}

// NewReplies reads the cassettes' interactions; name is what a miss
// error calls them.
func NewReplies(name string, match MatchMode, cassettes ...ServedCassette) (*Replies, error) {
	r := &Replies{name: name, match: match, exact: map[string]int{}, canon: map[string]int{}, single: len(cassettes) == 1}
	for _, sc := range cassettes {
		c, err := decodeCassette(sc.Data) // bounded: aliases cannot make it expand
		if err != nil {
			return nil, fmt.Errorf("cassette %s: %w", sc.Name, err)
		}
		if len(c.Interactions) == 0 {
			return nil, fmt.Errorf("cassette %s: %w", sc.Name, ErrEmptyRecording)
		}
		for n, i := range c.Interactions {
			model, turn := readChat([]byte(i.Request.Body))
			body := []byte(i.Response.Body)
			reply := ServeReply{Status: i.Response.Code, Body: body, From: fmt.Sprintf("%s interaction %d", sc.Name, n+1)}
			if ct := i.Response.Headers.Get("Content-Type"); ct != "" {
				reply.Header = http.Header{"Content-Type": {ct}}
			}
			if isSSEReply(reply) {
				reply.Events = SplitEvents(body)
			}
			key := keyOf(i.Request.Method, servedPath(i.Request.URL), []byte(i.Request.Body))
			idx := len(r.items)
			r.items = append(r.items, servedItem{model: model, turn: turn, reply: reply})
			r.keys = append(r.keys, key)
			if _, ok := r.exact[i.Request.Body]; !ok {
				r.exact[i.Request.Body] = idx
			}
			if _, ok := r.canon[key.method+" "+key.path+"\n"+key.body]; !ok {
				r.canon[key.method+" "+key.path+"\n"+key.body] = idx
			}
			if model != "" && !slices.Contains(r.models, model) {
				r.models = append(r.models, model)
			}
		}
	}
	return r, nil
}

// Models lists the recorded models, in order of first appearance.
func (r *Replies) Models() []string { return slices.Clone(r.models) }

// Reply answers req, or fails with a *MissError (errors.Is ErrReplayMiss)
// whose Request is req.Turn and whose diff is against the nearest recorded
// request.
func (r *Replies) Reply(req ServeRequest) (ServeReply, error) {
	if r.match == MatchTurn {
		return r.byTurn(req)
	}
	path := servedPath(req.Path)
	if i, ok := r.exact[string(req.Body)]; ok && r.keys[i].method == req.Method && r.keys[i].path == path {
		return r.items[i].reply, nil
	}
	sent := keyOf(req.Method, path, req.Body)
	if i, ok := r.canon[sent.method+" "+sent.path+"\n"+sent.body]; ok {
		return r.items[i].reply, nil
	}
	return ServeReply{}, r.miss(req, sent, nearest(r.keys, make([]bool, len(r.keys)), sent))
}

// byTurn serves the reply recorded for the same turn of the request's
// model (of the only cassette, when the model was not recorded).
func (r *Replies) byTurn(req ServeRequest) (ServeReply, error) {
	sent := keyOf(req.Method, servedPath(req.Path), req.Body)
	known := slices.Contains(r.models, req.Model)
	if !known && !r.single {
		return ServeReply{}, fmt.Errorf("%s: model %q is not recorded (recorded: %s); use a case URL /s/<cassette>/v1 or one of these models: %w",
			r.name, req.Model, strings.Join(r.models, ", "), ErrReplayMiss)
	}
	last := -1
	for i, it := range r.items {
		if known && it.model != req.Model {
			continue
		}
		if it.turn == req.Turn {
			return it.reply, nil
		}
		if it.turn < req.Turn && (last < 0 || it.turn >= r.items[last].turn) {
			last = i
		}
	}
	return ServeReply{}, r.miss(req, sent, last)
}

func (r *Replies) miss(req ServeRequest, sent requestKey, near int) error {
	e := &MissError{Scenario: r.name, Request: req.Turn, Method: sent.method, Path: sent.path, Recorded: len(r.items)}
	if near >= 0 {
		e.Nearest = near + 1
		e.Diff = cmp.Diff(r.keys[near].text(), sent.text())
	}
	return e
}

// servedPath is the path a served request is matched on: any path ending
// in /chat/completions is /v1/chat/completions, so that a cassette recorded
// behind any base URL serves on /v1 and on every case URL.
func servedPath(rawURL string) string {
	path := rawURL
	if _, after, ok := strings.Cut(rawURL, "://"); ok {
		path = "/"
		if _, p, ok := strings.Cut(after, "/"); ok {
			path += p
		}
	}
	path, _, _ = strings.Cut(path, "?")
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return "/v1/chat/completions"
	case strings.HasSuffix(path, "/responses"):
		return "/v1/responses"
	}
	return path
}
