package conform

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
)

// TerminalProgress keeps one status line at the bottom of a terminal,
// redrawn in place every second: the cases done of all, the verdicts so
// far and the cases running with how long each has run (a stall case says
// what it waits for). A finished case's line is written above it, as
// LineProgress writes it. Stop clears the status line; the table the run
// prints afterwards goes to stdout, never here.
type TerminalProgress struct {
	w   io.Writer
	now func() time.Time

	mu      sync.Mutex
	running map[string]runningCase
	counts  map[Status]int
	done    int
	total   int
	stop    chan struct{}
	stopped sync.WaitGroup
}

type runningCase struct {
	c     Case
	since time.Time
}

// statusWidth is the most runes of the status line: a line wider than the
// terminal wraps, and \r then redraws only its last row.
const statusWidth = 120

// NewTerminalProgress starts the redraw; call Stop when the run is over.
func NewTerminalProgress(w io.Writer) *TerminalProgress {
	t := newTerminalProgress(w, time.Now)
	t.stopped.Add(1)
	go func() {
		defer t.stopped.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-t.stop:
				return
			case <-tick.C:
				t.mu.Lock()
				t.draw()
				t.mu.Unlock()
			}
		}
	}()
	return t
}

func newTerminalProgress(w io.Writer, now func() time.Time) *TerminalProgress {
	return &TerminalProgress{w: w, now: now, running: map[string]runningCase{}, counts: map[Status]int{}, stop: make(chan struct{})}
}

func (t *TerminalProgress) Started(c Case, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.running[c.ID] = runningCase{c: c, since: at}
	t.draw()
}

func (t *TerminalProgress) Finished(r Result, done, total int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.running, r.Case.ID)
	t.counts[r.Status]++
	t.done, t.total = done, total
	fmt.Fprint(t.w, "\r\x1b[K")
	lineProgress{t.w}.Finished(r, done, total)
	t.draw()
}

// Stop ends the redraw and clears the status line.
func (t *TerminalProgress) Stop() {
	close(t.stop)
	t.stopped.Wait()
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprint(t.w, "\r\x1b[K")
}

// draw writes the status line over the one before.
func (t *TerminalProgress) draw() {
	fmt.Fprint(t.w, "\r\x1b[K"+t.status())
}

// status is the status line's text.
func (t *TerminalProgress) status() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d done", t.done, t.total)
	for _, s := range []Status{Success, Failure, Warning, Skipped} {
		if n := t.counts[s]; n > 0 {
			fmt.Fprintf(&b, ", %d %s", n, s)
		}
	}
	ids := make([]string, 0, len(t.running))
	for id := range t.running {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return t.running[a].since.Compare(t.running[b].since) }) // longest running first
	if len(ids) > 0 {
		b.WriteString(" · running:")
		for i, id := range ids {
			rc := t.running[id]
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s %s", id, t.now().Sub(rc.since).Round(time.Second))
			if rc.c.Fault == FaultStall {
				b.WriteString(" (waits for the agent to give up on a silent stream)")
			}
		}
	}
	line := []rune(b.String())
	if len(line) > statusWidth {
		line = append(line[:statusWidth-1], '…')
	}
	return string(line)
}
