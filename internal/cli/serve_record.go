package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
)

// The -record modes of serve, as vcrpy names its record modes.
const (
	recordNone = "none"
	recordNew  = "new"
	recordAll  = "all"
)

// recording is what serve -record records, and where.
type recording struct {
	mode string
	path string // the cassette file it writes (the -cassette path)
}

// checkRecordMode reads -record and -upstream: new and all forward to
// -upstream and write the one -cassette .yaml path given (new: the file
// must exist, as it is served and added to), which must be writable; none
// takes no -upstream.
func checkRecordMode(env Env, mode, upstream string, cassettes []string) (recording, error) {
	rec := recording{mode: mode}
	switch mode {
	case recordNone:
		if upstream != "" {
			return rec, errors.New("-upstream is where -record new or all forwards: give -record new (or all), or leave -upstream out")
		}
		return rec, nil
	case recordNew, recordAll:
	default:
		return rec, fmt.Errorf("-record %q: want none, new or all", mode)
	}
	if upstream == "" {
		return rec, fmt.Errorf("-record %s forwards what the cassette misses to a gateway: give -upstream URL (its base URL, e.g. https://api.openai.com/v1)", mode)
	}
	if len(cassettes) != 1 || !strings.HasSuffix(cassettes[0], ".yaml") {
		return rec, fmt.Errorf("-record %s writes one cassette: give exactly one -cassette FILE.yaml", mode)
	}
	rec.path = env.path(cassettes[0])
	fi, err := os.Stat(rec.path)
	switch {
	case mode == recordNew && errors.Is(err, fs.ErrNotExist):
		return rec, fmt.Errorf("-record new adds to %s, which does not exist: record it with -record all first", cassettes[0])
	case err == nil && fi.Mode().Perm()&0o222 == 0:
		return rec, fmt.Errorf("-record %s: %s is not writable: nothing would be saved", mode, cassettes[0])
	}
	probe, err := os.CreateTemp(filepath.Dir(rec.path), ".agentvcr-write-check-*")
	if err != nil {
		return rec, fmt.Errorf("-record %s: cannot write beside %s: %v", mode, cassettes[0], errors.Unwrap(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return rec, nil
}

// missEverything is -record all's Answer: every request is a miss, so
// every one goes to the upstream.
func missEverything(r serve.Request) (serve.Reply, error) {
	return serve.Reply{}, &cassette.MissError{Scenario: "-record all", Request: int(r.Seq), Method: r.Method, Path: r.Path}
}

// saveMisses saves what the run recorded, as record saves (redacted,
// scanned, written beside the cassette and renamed over it): a run that
// recorded nothing leaves the cassette as it was. false when the save
// failed.
func saveMisses(env Env, p *record.Proxy, rec recording) bool {
	err := p.Stop()
	n := p.Recorded()
	switch {
	case errors.Is(err, cassette.ErrEmptyRecording):
		fmt.Fprintf(env.Stderr, "agentvcr serve: -record %s: nothing was forwarded: %s is as it was\n", rec.mode, rec.path)
	case err != nil:
		fmt.Fprintf(env.Stderr, "agentvcr serve: -record %s: %v\n", rec.mode, err)
		return false
	default:
		fmt.Fprintf(env.Stderr, "agentvcr serve: -record %s: saved %d new interactions to %s\n", rec.mode, n, rec.path)
	}
	return true
}
