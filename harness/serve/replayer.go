package serve

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unsafe"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
)

// A ServedCassette is a go-vcr v2.1.0 cassette and the name it is served
// under: its bytes (the YAML as saved), or the file that holds them.
type ServedCassette struct {
	Name string
	Data []byte
	// Path, when Data is nil, is the cassette's file, decoded as it is
	// read (cassette.DecodeFile): its bytes are never held whole, and a
	// CassetteRouter decodes it once for all its routes.
	Path string
}

// decode decodes and checks the cassette (bounded: aliases cannot make it
// expand); its errors name the cassette.
func (sc ServedCassette) decode() (*vcr.Cassette, error) {
	var c *vcr.Cassette
	var err error
	if sc.Data == nil && sc.Path != "" {
		c, err = cassette.DecodeFile(sc.Path)
	} else {
		c, err = cassette.Decode(sc.Data)
	}
	if err != nil {
		return nil, fmt.Errorf("cassette %s: %w", sc.Name, err)
	}
	return c, nil
}

// served is sc decoded for a replayer, which refuses a cassette without
// interactions.
func (sc ServedCassette) served(c *vcr.Cassette) (decodedCassette, error) {
	if len(c.Interactions) == 0 {
		return decodedCassette{}, fmt.Errorf("cassette %s: %w", sc.Name, cassette.ErrEmptyRecording)
	}
	return decodedCassette{sc.Name, c}, nil
}

// decodedCassette is a cassette decoded and the name it is served under.
type decodedCassette struct {
	name string
	c    *vcr.Cassette
}

// A Replayer answers requests of every format from recorded interactions,
// any number of times each: the Answer of a Route. It is read-only once
// made, so any number of requests may use it at once.
type Replayer struct {
	name   string
	match  MatchMode
	items  []servedItem
	keys   []cassette.RequestKey
	exact  map[string]int // raw recorded body -> first item with it
	canon  map[string]int // canonical key -> first item with it
	models []string
	single bool     // every item comes from one cassette
	ignore []string // request fields left out of body matching
}

type servedItem struct {
	model string
	turn  int
	whole bool // asked for one JSON answer, not a stream (wholePath)
	reply Reply
}

// NewReplayer reads the cassettes' interactions; name is what a miss
// error calls them.
func NewReplayer(name string, match MatchMode, cassettes ...ServedCassette) (*Replayer, error) {
	var decoded []decodedCassette
	for _, sc := range cassettes {
		c, err := sc.decode()
		if err != nil {
			return nil, err
		}
		dc, err := sc.served(c)
		if err != nil {
			return nil, err
		}
		decoded = append(decoded, dc)
	}
	return newReplayer(name, match, nil, decoded), nil
}

// newReplayer is NewReplayer of cassettes already decoded, leaving the
// fields ignore names (cassette.IgnorePath) out of body matching, on both
// sides: the CassetteRouter's Ignore. The replies are the decoded bodies
// themselves, so that any number of replayers share them.
func newReplayer(name string, match MatchMode, ignore []string, cassettes []decodedCassette) *Replayer {
	r := &Replayer{name: name, match: match, exact: map[string]int{}, canon: map[string]int{}, single: len(cassettes) == 1, ignore: ignore}
	for _, dc := range cassettes {
		for n, i := range dc.c.Interactions {
			f := formatOf(i.Request.URL)
			model, turn := f.TurnOf(urlPath(i.Request.URL), []byte(i.Request.Body))
			body := bytesOf(i.Response.Body)
			reply := Reply{Status: i.Response.Code, Body: body, From: fmt.Sprintf("%s interaction %d", dc.name, n+1)}
			if ct := i.Response.Headers.Get("Content-Type"); ct != "" {
				reply.Header = http.Header{"Content-Type": {ct}}
			}
			if isSSEReply(reply) {
				reply.Events = sse.SplitEvents(body)
				// a list that does not read is served unpaced, as a
				// recording without one (cassette.TimedInteractions)
				reply.At, _ = cassette.ParseEventTimes(i.Response.Headers.Get(cassette.EventTimesHeader))
			}
			key := cassette.KeyIgnoring(i.Request.Method, servedPath(i.Request.URL, model), []byte(i.Request.Body), ignore)
			idx := len(r.items)
			r.items = append(r.items, servedItem{model: model, turn: turn, whole: wholePath(i.Request.URL), reply: reply})
			r.keys = append(r.keys, key)
			if _, ok := r.exact[i.Request.Body]; !ok {
				r.exact[i.Request.Body] = idx
			}
			if _, ok := r.canon[key.Canonical()]; !ok {
				r.canon[key.Canonical()] = idx
			}
			if model != "" && !slices.Contains(r.models, model) {
				r.models = append(r.models, model)
			}
		}
	}
	return r
}

// bytesOf is the decoded body's own bytes, not a copy: a served body is
// only ever read (sliced by faults, split into events, written out), so a
// replay holds each body once (serve once held the decoded string and
// a copy of it).
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// Models lists the recorded models, in order of first appearance.
func (r *Replayer) Models() []string { return slices.Clone(r.models) }

// Answer answers req, or fails with a *MissError (errors.Is ErrReplayMiss)
// whose Request is req.Turn and whose diff is against the nearest recorded
// request.
func (r *Replayer) Answer(req Request) (Reply, error) {
	if r.match == MatchTurn {
		return r.byTurn(req)
	}
	path := servedPath(req.Path, req.Model)
	if i, ok := r.exact[string(req.Body)]; ok && r.keys[i].Method == req.Method && r.keys[i].Path == path {
		return r.items[i].reply, nil
	}
	sent := cassette.KeyIgnoring(req.Method, path, req.Body, r.ignore)
	if i, ok := r.canon[sent.Canonical()]; ok {
		return r.items[i].reply, nil
	}
	return Reply{}, r.miss(req, sent, cassette.Nearest(r.keys, make([]bool, len(r.keys)), sent))
}

// byTurn serves the reply recorded for the same turn of the request's
// model (of the only cassette, when the model was not recorded).
func (r *Replayer) byTurn(req Request) (Reply, error) {
	sent := cassette.KeyOf(req.Method, servedPath(req.Path, req.Model), req.Body)
	known := slices.Contains(r.models, req.Model)
	if !known && !r.single {
		return Reply{}, fmt.Errorf("%s: model %q is not recorded (recorded: %s); use a case URL /s/<cassette>/v1 or one of these models: %w",
			r.name, req.Model, strings.Join(r.models, ", "), cassette.ErrReplayMiss)
	}
	last := -1
	for i, it := range r.items {
		if known && it.model != req.Model || it.whole != wholePath(req.Path) {
			continue
		}
		if it.turn == req.Turn {
			return it.reply, nil
		}
		if it.turn < req.Turn && (last < 0 || it.turn >= r.items[last].turn) {
			last = i
		}
	}
	return Reply{}, r.miss(req, sent, last)
}

func (r *Replayer) miss(req Request, sent cassette.RequestKey, near int) error {
	e := &cassette.MissError{Scenario: r.name, Request: req.Turn, Method: sent.Method, Path: sent.Path, Recorded: len(r.items)}
	if near >= 0 {
		e.SetNearest(near, r.keys[near], sent)
	}
	return e
}

// servedPath is the path a served request is matched on: a path a format
// serves is that format's path under its base path
// (agent.Format.ServedPath), whatever prefix it was recorded or requested
// under, so that a cassette recorded behind any base URL serves on /v1 and on
// every case URL. Any other path is matched as it is.
func servedPath(rawURL, model string) string {
	path := urlPath(rawURL)
	if f := wire.ForPath(path); f != nil {
		return f.ServedPath(path, model)
	}
	return path
}

// formatOf is the format a recorded request's URL was posted in, the
// default when its path is none's.
func formatOf(rawURL string) *agent.Format {
	if f := wire.ForPath(urlPath(rawURL)); f != nil {
		return f
	}
	return wire.Default()
}

// urlPath is the path of a recorded URL (or of a path with a query).
func urlPath(rawURL string) string {
	path := rawURL
	if _, after, ok := strings.Cut(rawURL, "://"); ok {
		path = "/"
		if _, p, ok := strings.Cut(after, "/"); ok {
			path += p
		}
	}
	path, _, _ = strings.Cut(path, "?")
	return path
}

// wholePath reports a request path that asks for one JSON answer rather
// than a stream (Gemini's :generateContent, agent.Format.PathModel): turn
// matching keeps such requests apart from the streamed turns (Gemini CLI's
// routing classifier is turn 1 too).
func wholePath(rawURL string) bool {
	path := urlPath(rawURL)
	f := wire.ForPath(path)
	if f == nil || f.PathModel == nil {
		return false
	}
	_, stream := f.PathModel(path)
	return !stream
}
