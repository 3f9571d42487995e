package serve

import (
	"errors"
	"fmt"
	"sync"
)

// DefaultMaxBodyTotal is the default bound of what the request bodies
// still arriving hold together (Server.MaxBodyTotal): eight bodies of
// MaxRequestBody.
const DefaultMaxBodyTotal = 8 * MaxRequestBody

// ErrBodiesFull: the bodies still arriving hold the server's bound
// together; the server answers 503 with Retry-After and closes the
// connection.
var ErrBodiesFull = errors.New("the request bodies still arriving hold the server's bound")

// bodyBudget bounds the bytes that the chunks of request bodies still
// arriving hold together, so that many slow clients cannot hold more than
// it between them however little each sends. A nil budget bounds nothing.
type bodyBudget struct {
	mu    sync.Mutex
	used  int
	limit int
}

func (b *bodyBudget) take(n int) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

func (b *bodyBudget) give(n int) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

func (b *bodyBudget) full() error {
	return fmt.Errorf("%w: %d bytes together", ErrBodiesFull, b.limit)
}

// bodies is the server's budget, made on first use from MaxBodyTotal.
func (s *Server) bodies() *bodyBudget {
	s.budgetOnce.Do(func() {
		limit := s.MaxBodyTotal
		if limit == 0 {
			limit = DefaultMaxBodyTotal
		}
		if limit > 0 {
			s.budget = &bodyBudget{limit: int(limit)}
		}
	})
	return s.budget
}
