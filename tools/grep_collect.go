package tools

import (
	"context"
	"errors"
	"os"
	"sync"
)

// collector takes the files' results in walk order and decides when the
// search stops: at the first hit past grepMaxHits, or before a file once
// grepByteBudget bytes have been read in all.
type collector struct {
	hits     []string
	more     bool  // a hit past the limit exists
	searched int   // text files searched
	read     int64 // bytes read in all
	cutFiles int   // files the per-file budget cut short
	firstCut string
	callCut  bool   // the per-call budget stopped the search
	last     string // the last file taken, where a per-call stop happened
	err      error  // the caller's context ended the search
}

// take adds one file's result and reports whether the search is over.
func (c *collector) take(r fileResult) bool {
	if r.err != nil {
		c.err = r.err
		return true
	}
	if c.read >= grepByteBudget {
		c.callCut = true
		return true
	}
	c.last = r.rel
	c.read += r.read
	if r.searched {
		c.searched++
	}
	if r.cut {
		if c.cutFiles == 0 {
			c.firstCut = r.rel
		}
		c.cutFiles++
	}
	for _, h := range r.hits {
		if len(c.hits) == grepMaxHits {
			c.more = true
			return true
		}
		c.hits = append(c.hits, h)
	}
	return false
}

// searchAll searches every file the filter admits, walking in path order.
// With one worker it searches each file as the walk finds it. With more, the
// walk hands numbered files to the workers and the results are taken back
// in walk order, so the output is the same whatever the number of workers;
// at most window files are in flight beyond the last one taken.
func (g grepper) searchAll(ctx context.Context, root *os.Root, filter globPattern, newSearcher func() *searcher) *collector {
	c := &collector{}
	enter := func(dir string) bool { return filter.mayContain(filter.rel(dir)) }
	admit := func(p string) bool { return filter.match(filter.rel(p)) }
	workers := max(1, g.workers)
	if workers == 1 {
		s := newSearcher()
		defer s.close()
		fsys := newRootFS(root)
		defer fsys.close()
		err := walkFiles(ctx, fsys, filter.dir, enter, func(p string) error {
			if !admit(p) {
				return nil
			}
			if c.take(s.file(ctx, root, p, grepMaxHits-len(c.hits))) {
				return errStopWalk
			}
			return nil
		})
		if err != nil && c.err == nil {
			c.err = err
		}
		return c
	}

	type job struct {
		n   int
		rel string
	}
	type done struct {
		n int
		r fileResult
	}
	window := 4 * workers
	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job)
	results := make(chan done, window)
	tokens := make(chan struct{}, window)
	var walkErr error
	go func() {
		defer close(jobs)
		defer func() {
			if v := recover(); v != nil {
				walkErr = panicError{value: v}
			}
		}()
		fsys := newRootFS(root)
		defer fsys.close()
		n := 0
		walkErr = walkFiles(inner, fsys, filter.dir, enter, func(p string) error {
			if !admit(p) {
				return nil
			}
			select {
			case tokens <- struct{}{}:
			case <-inner.Done():
				return inner.Err()
			}
			select {
			case jobs <- job{n, p}:
			case <-inner.Done():
				return inner.Err()
			}
			n++
			return nil
		})
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSearcher()
			defer s.close()
			for j := range jobs {
				results <- done{j.n, s.safeFile(inner, root, j.rel, grepMaxHits)}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int]fileResult{}
	next, over := 0, false
	for d := range results {
		if over {
			continue // drain what was in flight
		}
		pending[d.n] = d.r
		for r, ok := pending[next]; ok; r, ok = pending[next] {
			delete(pending, next)
			next++
			<-tokens
			if c.take(r) {
				over = true
				cancel()
				break
			}
		}
	}
	var p panicError
	if c.err == nil && (!over || errors.As(walkErr, &p)) && walkErr != nil {
		c.err = walkErr
	}
	if err := ctx.Err(); err != nil {
		c.err = err
	}
	return c
}

// safeFile is file for a worker goroutine, which Execute's recover does not
// cover: a panic becomes the file's error, and so the call's failure.
func (s *searcher) safeFile(ctx context.Context, root *os.Root, rel string, want int) (r fileResult) {
	defer func() {
		if v := recover(); v != nil {
			r = fileResult{rel: rel, err: panicError{value: v}}
		}
	}()
	return s.file(ctx, root, rel, want)
}
