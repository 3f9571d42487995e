package conform

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadShard is returned for a -shard value conform cannot use.
var ErrBadShard = errors.New("bad shard")

// A Shard is slice Index of Count (conform -shard I/N, counted from 1): a
// CI matrix runs every slice on its own machine and `agentvcr report merge`
// joins their JSON reports.
//
// The split is by position in the run's case list (the catalog's order,
// after -case): the k-th case (from 0, the probe left out) goes to shard
// k mod Count + 1. That list is compiled into the binary, so every machine
// running the same agentvcr with the same flags makes the same split, and
// round robin keeps the shards' sizes within one case of each other and
// spreads each tier (the fault cases, stall among them, come last) over
// every shard; a hash of the id would be as stable but could put the slow
// cases on one machine.
//
// The probe (the first case, clean or replay, Run's first and alone) runs
// in every shard: it builds the conversation the others are judged by
// (recorded mode's reference, followClean's note). Only shard 1 reports it.
type Shard struct{ Index, Count int }

// ParseShard reads "I/N".
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("%w %q: give I/N, e.g. 1/3 for the first of three shards", ErrBadShard, s)
	case count < 1:
		return Shard{}, fmt.Errorf("%w %s: give at least 1 shard (N counts them)", ErrBadShard, s)
	case index < 1 || index > count:
		return Shard{}, fmt.Errorf("%w %s: shards count from 1 to N: give 1/%d to %d/%d", ErrBadShard, s, count, count, count)
	}
	return Shard{Index: index, Count: count}, nil
}

// String is "I/N", or "" for no shard (the whole run).
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Cases returns the shard's cases in their order: the probe (when cases
// start with one) and every Count-th of the others from Index. Every shard
// must get at least one case of its own, so Count may not exceed the cases
// besides the probe.
func (s Shard) Cases(cases []Case) ([]Case, error) {
	if s.Count <= 1 {
		return cases, nil
	}
	var out, rest []Case
	if len(cases) > 0 && isFirstCase(cases[0].ID) {
		out, rest = append(out, cases[0]), cases[1:]
	} else {
		rest = cases
	}
	switch {
	case len(rest) == 0:
		return nil, fmt.Errorf("%w %s: no case besides the probe to split: run them in one shard", ErrBadShard, s)
	case s.Count > len(rest):
		return nil, fmt.Errorf("%w %s: %d cases besides the probe fill at most %d shards", ErrBadShard, s, len(rest), len(rest))
	}
	for k, c := range rest {
		if k%s.Count == s.Index-1 {
			out = append(out, c)
		}
	}
	return out, nil
}

// Reported returns the results the shard reports: all but the probe's,
// which only shard 1 reports.
func (s Shard) Reported(results []Result) []Result {
	if s.Index <= 1 || len(results) == 0 || !isFirstCase(results[0].Case.ID) {
		return results
	}
	return results[1:]
}
