package record

import (
	"net/http"
	"sync"
)

// exchangeOrder commits a recording proxy's exchanges in the order their
// requests arrived. Each request takes a slot on arrival and gives it back
// when its answer has ended, with the exchange to record or nil. No
// handler waits for another: a finished exchange whose earlier slots are
// still open stays pending, and the handler that closes the gap commits
// everything that is then in order. Once every handler has returned,
// everything is committed.
type exchangeOrder struct {
	mu    sync.Mutex
	taken uint64
	next  uint64 // the first slot not yet committed
	// ended holds the slots given back and not yet committed, each with
	// its exchange (nil: nothing to record).
	ended map[uint64]*http.Request
}

// take gives the next slot.
func (o *exchangeOrder) take() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.taken++
	return o.taken - 1
}

// done ends slot with rec (nil: nothing to record) and calls commit, in
// slot order, for every exchange that is now next in line. commit runs
// under the order's lock, so commits never overlap.
func (o *exchangeOrder) done(slot uint64, rec *http.Request, commit func(*http.Request)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ended == nil {
		o.ended = map[uint64]*http.Request{}
	}
	o.ended[slot] = rec
	for {
		r, ok := o.ended[o.next]
		if !ok {
			return
		}
		if r != nil {
			commit(r)
		}
		delete(o.ended, o.next)
		o.next++
	}
}
