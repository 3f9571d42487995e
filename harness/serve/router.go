package serve

import (
	"errors"
	"fmt"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"

	"strings"
	"sync"
	"time"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/rechunk"
)

// QuirkSeparator joins a cassette's name and a quirk's in a case name:
// /s/parallel~index_plus_1/v1 serves the parallel cassette under the
// index_plus_1 transform.
const QuirkSeparator = "~"

// A CassetteRouter routes a Server's cases to cassettes: "" (the plain
// base URL) serves all of them, "<name>" one, "<name>~<quirk>" one under a
// quirk transform (quirk.ApplyToCassette, so dropped ids are renamed in the
// requests a body match expects). Its Route method is a Server's Route.
// Routes are built on first use and kept; the fields must not change after
// the first call.
type CassetteRouter struct {
	Cassettes []ServedCassette
	Match     MatchMode
	// Ignore names request fields body matching leaves out
	// (cassette.IgnorePath; cassette.VolatilePaths are the usual ones).
	Ignore []string
	// Quirk, when not "", is applied to every case that names none.
	Quirk string
	// Seed is the quirk transforms' seed.
	Seed  int64
	Fault Fault
	Pace  time.Duration
	// PaceRecorded and Speed are Route's: each event at its recorded time.
	PaceRecorded bool
	Speed        float64
	Rechunk      rechunk.Cutter
	// Coalesce is Route.Coalesce: no flush between events (load tests).
	Coalesce bool

	mu      sync.Mutex
	routes  sync.Map        // case name -> *Route
	decoded []*vcr.Cassette // Cassettes[i] decoded, shared by every route; under mu
}

// Route returns the route of a case name, building it on first use. A
// name it does not know, or a quirk that does not apply to the cassette,
// is an error wrapping ErrUnknownCase.
func (c *CassetteRouter) Route(name string) (*Route, error) {
	if r, ok := c.routes.Load(name); ok {
		return r.(*Route), nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.routes.Load(name); ok {
		return r.(*Route), nil
	}
	r, err := c.build(name)
	if err != nil {
		return nil, err
	}
	c.routes.Store(name, r)
	return r, nil
}

func (c *CassetteRouter) build(name string) (*Route, error) {
	base, quirkName, named := strings.Cut(name, QuirkSeparator)
	if !named {
		quirkName = c.Quirk
	}
	var picked []int
	for i, sc := range c.Cassettes {
		if base == "" || sc.Name == base {
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		return nil, fmt.Errorf("case %q: %w; served cassettes: %s", name, ErrUnknownCase, c.names())
	}
	var q quirk.Quirk
	if quirkName != "" {
		var err error
		if q, err = quirk.Lookup(quirkName); errors.Is(err, quirk.ErrUnknown) {
			return nil, fmt.Errorf("case %q: %v: %w; quirks: %s", name, err, ErrUnknownCase, strings.Join(quirk.Names(), ", "))
		} else if err != nil { // a composition that cannot compose
			return nil, fmt.Errorf("case %q: %v: %w", name, err, ErrUnknownCase)
		}
	}
	var cassettes []decodedCassette
	for _, i := range picked {
		sc := c.Cassettes[i]
		var decoded *vcr.Cassette
		var err error
		if quirkName == "" {
			decoded, err = c.decode(i)
		} else {
			var quirked []byte
			if quirked, err = c.quirked(i, q); err != nil {
				return nil, fmt.Errorf("case %q: cassette %s: %w", name, sc.Name, err)
			}
			sc = ServedCassette{Name: sc.Name + QuirkSeparator + quirkName, Data: quirked}
			decoded, err = sc.decode()
		}
		if err != nil {
			return nil, err
		}
		dc, err := sc.served(decoded)
		if err != nil {
			return nil, err
		}
		cassettes = append(cassettes, dc)
	}
	label := name
	if label == "" {
		label = c.names()
	}
	replies := newReplayer(label, c.Match, c.Ignore, cassettes)
	return &Route{Answer: replies.Answer, Models: replies.Models(), Fault: c.Fault, Pace: c.Pace, PaceRecorded: c.PaceRecorded, Speed: c.Speed,
		Rechunk: c.Rechunk, Coalesce: c.Coalesce}, nil
}

// decode returns Cassettes[i] decoded, decoding it on first use (under
// c.mu): every route of the cassette serves the same decoded bodies.
func (c *CassetteRouter) decode(i int) (*vcr.Cassette, error) {
	if len(c.decoded) != len(c.Cassettes) {
		c.decoded = make([]*vcr.Cassette, len(c.Cassettes))
	}
	if c.decoded[i] == nil {
		dc, err := c.Cassettes[i].decode()
		if err != nil {
			return nil, err
		}
		c.decoded[i] = dc
	}
	return c.decoded[i], nil
}

// quirked is Cassettes[i] under q (quirk.ApplyToCassette). A cassette
// served from its file is not kept as bytes: the YAML q reads is encoded
// again from the decoded cassette, for as long as the quirk takes, and the
// file is read once whatever routes are built later.
func (c *CassetteRouter) quirked(i int, q quirk.Quirk) ([]byte, error) {
	data := c.Cassettes[i].Data
	if data == nil {
		dc, err := c.decode(i)
		if err != nil {
			return nil, err
		}
		if data, err = yaml.Marshal(dc); err != nil {
			return nil, err
		}
	}
	return quirk.ApplyToCassette(data, q, c.Seed)
}

// Decoded returns the cassette named name decoded and checked, as its
// routes serve it (decoded once for all of them); an error names the
// cassette.
func (c *CassetteRouter) Decoded(name string) (*vcr.Cassette, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, sc := range c.Cassettes {
		if sc.Name == name {
			return c.decode(i)
		}
	}
	return nil, fmt.Errorf("case %q: %w; served cassettes: %s", name, ErrUnknownCase, c.names())
}

func (c *CassetteRouter) names() string {
	var names []string
	for _, sc := range c.Cassettes {
		names = append(names, sc.Name)
	}
	return strings.Join(names, ", ")
}
