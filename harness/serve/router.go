package serve

import (
	"fmt"
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

	mu     sync.Mutex
	routes sync.Map // case name -> *Route
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
	var picked []ServedCassette
	for _, sc := range c.Cassettes {
		if base == "" || sc.Name == base {
			picked = append(picked, sc)
		}
	}
	if len(picked) == 0 {
		return nil, fmt.Errorf("case %q: %w; served cassettes: %s", name, ErrUnknownCase, c.names())
	}
	if quirkName != "" {
		q, ok := quirk.ByName(quirkName)
		if !ok {
			return nil, fmt.Errorf("case %q: unknown quirk %q: %w; quirks: %s", name, quirkName, ErrUnknownCase, strings.Join(quirk.Names(), ", "))
		}
		for i, sc := range picked {
			data, err := quirk.ApplyToCassette(sc.Data, q, c.Seed)
			if err != nil {
				return nil, fmt.Errorf("case %q: cassette %s: %w", name, sc.Name, err)
			}
			picked[i] = ServedCassette{Name: sc.Name + QuirkSeparator + quirkName, Data: data}
		}
	}
	label := name
	if label == "" {
		label = c.names()
	}
	replies, err := newReplayer(label, c.Match, c.Ignore, picked)
	if err != nil {
		return nil, err
	}
	return &Route{Answer: replies.Answer, Models: replies.Models(), Fault: c.Fault, Pace: c.Pace, PaceRecorded: c.PaceRecorded, Speed: c.Speed,
		Rechunk: c.Rechunk, Coalesce: c.Coalesce}, nil
}

func (c *CassetteRouter) names() string {
	var names []string
	for _, sc := range c.Cassettes {
		names = append(names, sc.Name)
	}
	return strings.Join(names, ", ")
}
