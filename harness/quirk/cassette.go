package quirk

import (
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/sse"
	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"
)

// ApplyToCassette rewrites a go-vcr v2.1.0 cassette (the YAML as
// saved) so that every SSE response body (Content-Type text/event-stream,
// or a body starting with "data:") is q.Apply'd, with seed+N for the N-th
// interaction (0-based). Other responses and every request stay as they
// are, except for a quirk with DropsIDs: the accumulator then names the
// calls call_<index>_<position>, so each dropped id is renamed that way in
// the request bodies of the interactions after it, which is what the agent
// will send. Calls whose ids the quirk leaves alone keep them.
//
// A benign quirk yields a cassette the agent replays to the same
// transcript. A non-benign one (bad_args) changes what the agent sends
// next, so the derived cassette replays only up to the request after the
// broken turn; record such variants from the scripted gateway instead.
// The output is written the way go-vcr writes ("---" then the YAML), so the
// same input, quirk and seed always give the same bytes.
func ApplyToCassette(in []byte, q Quirk, seed int64) ([]byte, error) {
	c, err := ReadCassette(in)
	if err != nil {
		return nil, fmt.Errorf("quirk %s: %w", q.Name, err)
	}
	return c.Apply(q, seed)
}

// A Cassette is a go-vcr cassette read once, to derive the cassettes of
// several quirks from (ApplyToCassette reads one for each). Apply leaves
// it as it was read.
type Cassette struct {
	c *vcr.Cassette
}

// ReadCassette reads a cassette (the YAML as saved) for Cassette.Apply.
func ReadCassette(in []byte) (*Cassette, error) {
	c, err := cassette.Decode(in) // bounded: aliases cannot make it expand
	if err != nil {
		return nil, fmt.Errorf("read cassette: %w", err)
	}
	return &Cassette{c: c}, nil
}

// Apply is ApplyToCassette of the cassette read, to q with seed.
func (cas *Cassette) Apply(q Quirk, seed int64) ([]byte, error) {
	c := &vcr.Cassette{Version: cas.c.Version}
	renames := map[string]string{}
	for n, read := range cas.c.Interactions {
		i := *read // the copy is edited: the cassette read stays as it was
		c.Interactions = append(c.Interactions, &i)
		for old, renamed := range renames {
			i.Request.Body = strings.ReplaceAll(i.Request.Body, `"`+old+`"`, `"`+renamed+`"`)
		}
		if !isSSE(i.Response) {
			continue
		}
		body, err := q.Apply([]byte(i.Response.Body), seed+int64(n))
		if err != nil {
			return nil, fmt.Errorf("quirk %s: interaction %d: %w", q.Name, n+1, err)
		}
		if q.DropsIDs {
			if err := droppedIDs([]byte(i.Response.Body), body, renames); err != nil {
				return nil, fmt.Errorf("quirk %s: interaction %d: %w", q.Name, n+1, err)
			}
		}
		i.Response.Body = string(body)
	}
	out, err := yaml.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("quirk %s: write cassette: %w", q.Name, err)
	}
	return append([]byte("---\n"), out...), nil
}

func isSSE(r vcr.Response) bool {
	return sse.IsEventStream(r.Headers.Get("Content-Type")) ||
		strings.HasPrefix(r.Body, "data:")
}

// droppedIDs adds old id -> call_<index>_<position> for every call that has
// an id in the clean body and none in the transformed one.
func droppedIDs(clean, quirked []byte, renames map[string]string) error {
	before, err := parseQuirkStream(clean)
	if err != nil {
		return err
	}
	after, err := parseQuirkStream(quirked)
	if err != nil {
		return err
	}
	kept := map[string]bool{}
	for _, g := range after.calls() {
		kept[g.id] = true
	}
	for pos, g := range sortedByIndex(before.calls()) {
		if g.id == "" || kept[g.id] {
			continue
		}
		if _, err := g.index.Int64(); err != nil {
			return fmt.Errorf("call %s has no numeric index: %w", g.id, ErrNotApplicable)
		}
		renames[g.id] = fmt.Sprintf("call_%s_%d", g.index, pos)
	}
	return nil
}
