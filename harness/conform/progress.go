package conform

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Progress is told when each case starts and when it finishes
// (Options.Progress): a run of a real agent's whole catalog takes minutes,
// and its table comes only at the end. Calls come from the cases'
// goroutines, one at a time.
type Progress interface {
	Started(c Case, at time.Time)
	// Finished comes with how many cases are done and how many there are.
	Finished(r Result, done, total int)
}

// progressOf tells p, when there is one, of each case of a run, counting
// the cases done.
type progressOf struct {
	p     Progress
	total int
	mu    sync.Mutex
	done  int
}

func (o *progressOf) started(c Case) {
	if o.p == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.p.Started(c, time.Now())
}

func (o *progressOf) finished(r Result) {
	if o.p == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done++
	o.p.Finished(r, o.done, o.total)
}

// LineProgress writes one line per finished case to w, as go test -v
// streams its tests: what a CI log shows while the run goes on.
func LineProgress(w io.Writer) Progress { return lineProgress{w} }

type lineProgress struct{ w io.Writer }

func (lineProgress) Started(Case, time.Time) {}

func (l lineProgress) Finished(r Result, done, total int) {
	fmt.Fprintf(l.w, "conform: %d/%d %s %s (%s)\n", done, total, r.Case.ID, verdictWord(r), r.Duration.Round(100*time.Millisecond))
}

// verdictWord is the result's verdict before the baseline is read (the
// baseline is judged once every case is done).
func verdictWord(r Result) string {
	if r.Vacuous {
		return string(r.Status) + " (vacuous)"
	}
	return string(r.Status)
}
