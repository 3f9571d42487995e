package benchstream

import (
	"runtime/metrics"
	"time"
)

// PeakHeap runs run and returns how far the live heap (what the last
// garbage collection marked live) rose above where it stood when run
// started, sampled every millisecond: what a benchmark reports to show
// that a merger's memory stays flat however long the stream (the stream
// itself, made before, is not counted; nor is garbage, which the
// collector lets grow with the whole heap, the stream included).
func PeakHeap(run func()) uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var top uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > top {
				top = v
			}
			select {
			case <-done:
				peak <- top
				return
			case <-tick.C:
			}
		}
	}()
	run()
	close(done)
	top := <-peak
	if top < base {
		return 0
	}
	return top - base
}
