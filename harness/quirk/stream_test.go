package quirk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
)

// dataOf is what a body's events carry: each data, as JSON when it is.
// A refused answer's events already sent went out as the quirk writes an
// event it leaves alone (Gemini's re-encoded, comments left out), so that
// is what the test compares.
func dataOf(body []byte) []any {
	var out []any
	for _, ev := range sse.Parse(body) {
		if !ev.HasData {
			continue
		}
		var v any
		if json.Unmarshal([]byte(ev.Data), &v) != nil {
			v = ev.Data
		}
		out = append(out, v)
	}
	return out
}

// answers are the streamed answers of every cassette in cassettes/ and
// every stream fixture (wire/*/testdata/streams, this package's
// testdata), by name.
func answers(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	root := filepath.Join("..", "..")
	walk := func(dir string, keep func(path string) bool, read func(path string, b []byte)) {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !keep(path) {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			read(path, b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk("cassettes", func(p string) bool { return strings.HasSuffix(p, ".yaml") }, func(path string, b []byte) {
		c, err := cassette.Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for n, i := range c.Interactions {
			if isSSE(i.Response) {
				out[fmt.Sprintf("%s#%d", path, n+1)] = []byte(i.Response.Body)
			}
		}
	})
	fixture := func(p string) bool { return strings.HasSuffix(p, ".sse") }
	walk("wire", fixture, func(path string, b []byte) { out[path] = b })
	walk(filepath.Join("harness", "quirk", "testdata"), fixture, func(path string, b []byte) { out[path] = b })
	return out
}

// streamed feeds body to a Stream of q in pieces, each ending where ends
// says, and returns what it sent (appended to dst[:0]) and the first error.
func streamed(q Quirk, seed int64, body []byte, ends []int, dst []byte) ([]byte, error) {
	s := q.Stream(seed)
	out := dst[:0]
	var first error
	start := 0
	for _, end := range ends {
		b, err := s.Write(body[start:end])
		start = end
		out = append(out, b...)
		if first == nil {
			first = err
		}
	}
	b, err := s.Close()
	if first == nil {
		first = err
	}
	return append(out, b...), first
}

// randomEnds cuts n bytes into pieces of 1 to 40 bytes, the seed's, and
// returns where each ends.
func randomEnds(n int, seed int64) []int {
	rng := rechunk.NewRand(seed)
	var ends []int
	for end := 0; end < n; {
		end = min(n, end+1+rng.Intn(40))
		ends = append(ends, end)
	}
	return ends
}

// TestStreamIsApply: for every quirk (and the compositions of
// composedUnderTest) and every recorded or fixture
// answer, a Stream sends exactly what Apply makes of the whole answer, fed
// event by event, byte by byte and in random pieces. Where Apply refuses
// (ErrNotApplicable, or an answer it cannot read) the Stream refuses with
// the same sentinel and sends the answer's data as it came.
func TestStreamIsApply(t *testing.T) {
	bodies := answers(t)
	if len(bodies) < 200 {
		t.Fatalf("only %d answers found: the walk lost cassettes or fixtures", len(bodies))
	}
	// An answer recorded twice (75 of the cassettes' 491) is tested once:
	// the same bytes give the same result. Each is cut once, for every quirk.
	type cutAnswer struct {
		name string
		body []byte
		cuts map[string][]int // where each piece ends, by cut
	}
	var cutAnswers []cutAnswer
	seen := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(bodies)) {
		body := bodies[name]
		if seen[string(body)] {
			continue
		}
		seen[string(body)] = true
		var events []int // where each event ends
		end := 0
		for _, ev := range sse.SplitEvents(body) {
			if !bytes.HasPrefix(body[end:], ev) {
				t.Fatalf("%s: the events are not the answer's bytes in order", name)
			}
			end += len(ev)
			events = append(events, end)
		}
		cuts := map[string][]int{"events": events, "random 1": randomEnds(len(body), 1)}
		fixture := !strings.Contains(name, "#")
		if fixture { // a cassette's answers come from few shapes: cut them less
			cuts["random 2"] = randomEnds(len(body), 2)
		}
		if fixture && len(body) < 4096 {
			for i := range body {
				cuts["bytes"] = append(cuts["bytes"], i+1)
			}
		}
		cutAnswers = append(cutAnswers, cutAnswer{name, body, cuts})
	}
	var applied atomic.Int64
	t.Cleanup(func() {
		if applied.Load() == 0 {
			t.Error("no quirk applied to any answer")
		}
	})
	for _, q := range slices.Concat(All(), composed(t)) {
		t.Run(q.Name, func(t *testing.T) {
			t.Parallel() // the answers and their cuts are only read
			var sent []byte
			for _, a := range cutAnswers {
				name, body := a.name, a.body
				const seed = 7
				whole, werr := q.Apply(body, seed)
				for cut, ends := range a.cuts {
					got, err := streamed(q, seed, body, ends, sent)
					sent = got // the next cut reuses the room
					switch {
					case werr == nil && err != nil:
						t.Errorf("%s, %s: Apply gives no error, the stream %v", name, cut, err)
					case werr == nil:
						if bytes.Equal(whole, got) {
							continue
						}
						if diff := cmp.Diff(string(whole), string(got)); diff != "" {
							t.Errorf("%s, %s: stream differs from Apply (-whole +stream):\n%s", name, cut, diff)
						}
					case errors.Is(werr, ErrNotApplicable) != errors.Is(err, ErrNotApplicable) || err == nil:
						t.Errorf("%s, %s: Apply: %v; stream: %v", name, cut, werr, err)
					case q.parts != nil: // the parts before and after a refusing one still edit
						want, sent := dataOf(appliedSkipping(q, body, seed)), dataOf(got)
						if diff := cmp.Diff(want, sent); diff != "" {
							t.Errorf("%s, %s: a refused part does not pass what it read as it came (-parts applied +sent):\n%s", name, cut, diff)
						}
					case bytes.Equal(body, got): // refused before anything was re-encoded
					default:
						want, sent := dataOf(body), dataOf(got)
						if reflect.DeepEqual(want, sent) {
							continue
						}
						if diff := cmp.Diff(want, sent); diff != "" {
							t.Errorf("%s, %s: a refused answer does not pass as it came (-answer +sent):\n%s", name, cut, diff)
						}
					}
				}
				if werr == nil {
					applied.Add(1)
				}
			}
		})
	}
}

// TestStreamHoldsOnlyWhatItSays: fed the demo's first answer (text, then a
// call) event by event, a quirk that holds nothing has sent, after each
// event, all that Apply makes of the events so far (comments' closing
// keepalive aside); any other that holds less than the answer has sent
// something before its end, and its bytes so far always begin Apply's. Proved failing by
// a Stream that held every answer (the first version of this file).
func TestStreamHoldsOnlyWhatItSays(t *testing.T) {
	bodies := answers(t)
	first := map[string][]byte{}
	for api, dir := range map[string]string{"chat": "", "messages": "messages/", "responses": "responses/", "gemini": "gemini/"} {
		body, ok := bodies[filepath.Join("..", "..", "cassettes", dir+"demo.yaml")+"#1"]
		if !ok {
			t.Fatalf("no first answer in %sdemo.yaml", dir)
		}
		first[api] = body
	}
	closing := len(": keepalive\n\n")
	for _, q := range slices.Concat(All(), composed(t)) {
		for api, body := range first {
			if q.API != "" && q.API != api {
				continue
			}
			whole, err := q.Apply(body, 3)
			if err != nil {
				continue // refused: TestStreamIsApply covers it
			}
			closing := closing
			if bytes.HasSuffix(whole, []byte("\r\n\r\n")) { // comments, then crlf
				closing = len(": keepalive\r\n\r\n")
			}
			s := q.Stream(3)
			var sent []byte
			var prefix []byte
			sentEarly := 0
			events := sse.SplitEvents(body)
			for k, ev := range events {
				b, err := s.Write(ev)
				if err != nil {
					t.Fatalf("%s on %s: event %d: %v", q.Name, api, k+1, err)
				}
				sent = append(sent, b...)
				prefix = append(prefix, ev...)
				if !bytes.HasPrefix(whole, sent) {
					t.Fatalf("%s on %s: after event %d the stream sent what Apply does not begin with", q.Name, api, k+1)
				}
				if k < len(events)-1 {
					sentEarly = len(sent)
				}
				if q.Holds() != "nothing" {
					continue
				}
				soFar, err := q.Apply(prefix, 3)
				if err != nil {
					t.Fatalf("%s on %s: Apply of %d events: %v", q.Name, api, k+1, err)
				}
				if !bytes.HasPrefix(soFar, sent) || len(soFar)-len(sent) > closing {
					t.Errorf("%s on %s holds back after event %d:\nsent  %q\nApply %q", q.Name, api, k+1, sent, soFar)
				}
			}
			if q.Holds() != "the answer" && sentEarly == 0 {
				t.Errorf("%s on %s (holds %s) sent nothing before the answer's end", q.Name, api, q.Holds())
			}
		}
	}
}

// TestDecideProbesDiffer: alone, the two probes of Stream.decide say two
// formats (what lets decide tell a head that says its format from one
// that does not yet).
func TestDecideProbesDiffer(t *testing.T) {
	alone := wire.Detect([]byte(chatProbe))
	if messagesProbeFormat == alone || messagesProbeFormat != wire.Detect([]byte("\n"+messagesProbe)) {
		t.Errorf("the probes say %s and %s", messagesProbeFormat.Name, alone.Name)
	}
}
