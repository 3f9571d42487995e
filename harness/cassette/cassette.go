package cassette

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/dnaeon/go-vcr/v2/recorder"

	"github.com/agentvcr/agentvcr/harness/rechunk"
)

// Mode is how a cassette is opened.
type Mode int

const (
	// ModeReplay serves recorded interactions only; nothing reaches the
	// network. It is the default.
	ModeReplay Mode = iota
	// ModeRecord sends every request to the real transport and records
	// in memory; Stop redacts, encodes and scans the recording there, and
	// only then writes it to a temporary file beside the cassette
	// (<name>.recording.yaml) and renames it over the cassette, so an
	// existing cassette is replaced, never appended to, and kept as it was
	// when the recording fails.
	ModeRecord
)

// Errors a cassette's callers test for. ErrReplayMiss is in match.go.
var (
	// ErrUnusedInteractions: after a replay, some recorded interactions
	// were never asked for; the conversation went differently.
	ErrUnusedInteractions = errors.New("recorded interactions were never used")
	// ErrSecretInCassette: a secret survived redaction into the saved
	// file; the file has been removed.
	ErrSecretInCassette = errors.New("secret found in the saved cassette")
	// ErrEmptyRecording: a recording ended with no request, so no file
	// was written (go-vcr v2.1.0 skips saving an empty cassette).
	ErrEmptyRecording = errors.New("recording holds no interaction")
)

// Options tune a cassette. The zero value is usable.
type Options struct {
	// Name is the scenario name that miss and unused errors print;
	// default: the file name without its directory and ".yaml".
	Name string
	// Secrets are strings (API keys, tokens) that must never reach the
	// file: each is replaced by REDACTED in bodies and URLs, and the saved
	// file is scanned for them. Empty strings are ignored.
	Secrets []string
	// Rechunk is how response bodies reach the caller; the zero value
	// delivers each body whole, as go-vcr does.
	Rechunk rechunk.Cutter
	// Log, when not nil, receives one line when Open removes the
	// temporary file of a recording that was killed while saving.
	Log io.Writer
	// Existing, in ModeRecord, are interactions the file holds already
	// (a recording that adds to a cassette: serve -record new): Stop writes
	// them first, as they are, then the new ones, and scans the whole. A
	// recording of nothing new is still ErrEmptyRecording.
	Existing []*vcr.Interaction
}

// A Cassette records or replays chat-completions traffic through go-vcr
// v2.1.0. Use Transport or Client for requests, then Stop exactly once.
type Cassette struct {
	file string // the .yaml path
	temp string // record mode: the file Stop writes once scanned, then moves to file
	name string
	mode Mode
	opts Options
	rec  *recorder.Recorder // record mode
	// loaded is the replayed cassette, decoded once (Load); its bodies are
	// served as they are, never copied (replay.go).
	loaded *vcr.Cassette
	// answers are those of loaded that a replay opened from a file
	// reads from it (answer.go); nil when all are in loaded
	answers *fileAnswers

	// redact is the save filter's work; tests replace it to prove that
	// the secret scan catches what redaction misses.
	redact func(*vcr.Interaction) error

	mu       sync.Mutex
	recorded []*vcr.Interaction // record: what go-vcr captured, unredacted, in memory only
	sent     int                // requests sent through the cassette
	keys     []RequestKey       // replay: the recorded requests, in file order; a body only once keyed
	keyed    []bool             // replay: which keys hold their canonical body (key)
	used     []bool             // replay: which recorded interactions were served
	stopped  bool
	missed   bool // replay: a request matched no interaction
}

// Open opens the cassette at path (".yaml" is added when missing).
// In ModeReplay the file must exist and real is not used; in ModeRecord
// requests go to real (http.DefaultTransport when nil) and are recorded
// in memory; Stop redacts and scans them there, then writes
// <name>.recording.yaml and renames it over the cassette (Discard writes
// nothing). A <name>.recording.yaml left by a recording killed while
// saving is removed, with a line on Options.Log.
func Open(path string, mode Mode, real http.RoundTripper, opts Options) (*Cassette, error) {
	base := strings.TrimSuffix(path, ".yaml")
	if mode == ModeReplay {
		// Checked first (Load): go-vcr would take any file it can
		// decode, whatever it expands to.
		loaded, answers, err := loadAnswers(base)
		if err != nil {
			return nil, err
		}
		c := Replay(base+".yaml", loaded, opts)
		c.answers = answers
		return c, nil
	}
	c := &Cassette{file: base + ".yaml", name: opts.Name, mode: mode, opts: opts}
	if c.name == "" {
		c.name = filepath.Base(base)
	}
	c.redact = c.redactInteraction
	var err error
	switch mode {
	case ModeRecord:
		// go-vcr v2.1.0 appends to an existing file and writes before any
		// scan, so it only captures (keep) and never saves: Stop encodes
		// and scans in memory (save.go), then writes a temporary file
		// beside the cassette and moves it into place, so a failed
		// recording never destroys the cassette it would have replaced.
		c.temp = base + ".recording.yaml"
		if err := removeStale(c.temp, c.file, opts.Log); err != nil {
			return nil, err
		}
		c.rec, err = recorder.NewAsMode(strings.TrimSuffix(c.temp, ".yaml"), recorder.ModeRecording, real)
		if err != nil {
			return nil, fmt.Errorf("cassette %s: %w", c.file, err)
		}
		c.rec.AddFilter(c.keep)
	default:
		return nil, fmt.Errorf("cassette %s: unknown mode %d", c.file, mode)
	}
	return c, nil
}

// Transport is the cassette as an http.RoundTripper, re-chunking response
// bodies as Options.Rechunk says.
func (c *Cassette) Transport() http.RoundTripper {
	return c.opts.Rechunk.Transport(cassetteTransport{c})
}

// AddSecrets makes more strings secrets of a recording, from now on: a
// recording proxy learns them from each request's auth headers.
func (c *Cassette) AddSecrets(secrets ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range secrets {
		if s != "" && !slices.Contains(c.opts.Secrets, s) {
			c.opts.Secrets = append(c.opts.Secrets, s)
		}
	}
}

// Client is an http.Client using Transport.
func (c *Cassette) Client() *http.Client {
	return &http.Client{Transport: c.Transport()}
}

type cassetteTransport struct{ c *Cassette }

// RoundTrip numbers the request, buffers its body so that the matcher can
// compare it and go-vcr can record it, and turns go-vcr's bare "not found"
// into a *MissError.
func (t cassetteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c := t.c
	c.mu.Lock()
	c.sent++
	n := c.sent
	c.mu.Unlock()

	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("cassette %s: read request %d body: %w", c.file, n, err)
		}
		body = b
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	out.ContentLength = int64(len(body))

	var resp *http.Response
	var key RequestKey // made only when the request misses
	var err error
	if c.mode == ModeReplay {
		resp, key, err = c.replay(out, body)
	} else {
		key = KeyOf(req.Method, req.URL.String(), body)
		resp, err = c.rec.RoundTrip(out)
	}
	if errors.Is(err, vcr.ErrInteractionNotFound) {
		c.mu.Lock()
		c.missed = true
		c.mu.Unlock()
		return nil, c.miss(n, key)
	}
	return resp, err
}

func (c *Cassette) miss(n int, sent RequestKey) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &MissError{Scenario: c.name, Request: n, Method: sent.Method, Path: sent.Path, Recorded: len(c.keys)}
	for i := range c.keys {
		c.key(i) // Nearest reads every recorded body
	}
	if i := Nearest(c.keys, c.used, sent); i >= 0 {
		e.SetNearest(i, c.keys[i], sent)
	}
	return e
}

// Stop ends the cassette. After a recording it redacts, encodes and scans
// the recording in memory (ErrSecretInCassette: nothing is written) and
// fails on an empty recording (ErrEmptyRecording); only then is the file
// written and moved over the cassette. After a replay it fails when an
// interaction was never used (ErrUnusedInteractions), unless a request
// already missed. A second Stop, or Stop after Discard, does nothing.
func (c *Cassette) Stop() error {
	if !c.markStopped() {
		return nil
	}
	if c.mode == ModeRecord {
		return c.save()
	}
	if err := c.answers.close(); err != nil {
		return fmt.Errorf("cassette %s: %w", c.file, err)
	}
	if c.missed {
		return nil // the miss already said the conversation went differently
	}
	var unused []string
	for i, used := range c.used {
		if !used {
			unused = append(unused, fmt.Sprint(i+1))
		}
	}
	if len(unused) > 0 {
		return fmt.Errorf("scenario %q: %d of %d recorded interactions never used (number %s): %w",
			c.name, len(unused), len(c.keys), strings.Join(unused, ", "), ErrUnusedInteractions)
	}
	return nil
}

// Discard ends a recording without writing it: the run it recorded failed,
// and the cassette on disk, if any, stays as it was. For a replay it is
// Stop without the unused-interaction check.
func (c *Cassette) Discard() error {
	if !c.markStopped() {
		return nil
	}
	if c.mode == ModeRecord {
		c.mu.Lock()
		c.recorded = nil // never written
		c.mu.Unlock()
	}
	if err := c.answers.close(); err != nil {
		return fmt.Errorf("cassette %s: %w", c.file, err)
	}
	return nil
}

// markStopped reports whether this call is the one that stops the cassette.
func (c *Cassette) markStopped() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return false
	}
	c.stopped = true
	return true
}
