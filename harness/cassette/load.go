package cassette

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"
)

// DefaultMaxBytes bounds the expanded size of a cassette: the sum of
// the URLs and bodies of its interactions, each counted every time it is
// used. YAML anchors and aliases let a 1 MiB file name one large body
// thousands of times; replay would then hold gigabytes. The environment
// variable AGENTVCR_MAX_CASSETTE_MB raises (or lowers) it.
const DefaultMaxBytes = 256 << 20

// MaxBytesEnv is the variable that sets the bound in MiB.
const MaxBytesEnv = "AGENTVCR_MAX_CASSETTE_MB"

// ErrBadCassette: a cassette file cannot be replayed as it is; the error
// says why and what to do.
var ErrBadCassette = errors.New("bad cassette")

// cassetteFormat is the only format version go-vcr v2.1.0 writes and reads.
const cassetteFormat = 1

// maxBytes is the bound in force: MaxBytesEnv, else the default.
func maxBytes() (int64, error) {
	v := os.Getenv(MaxBytesEnv)
	if v == "" {
		return DefaultMaxBytes, nil
	}
	mb, err := strconv.ParseInt(v, 10, 64)
	if err != nil || mb <= 0 || mb > 1<<30 {
		return 0, fmt.Errorf("%s=%q: want a whole number of MiB, e.g. 1024", MaxBytesEnv, v)
	}
	return mb << 20, nil
}

// Load reads and checks the cassette file at path (".yaml" added
// when missing). Every failure wraps ErrBadCassette (or the file's read
// error; vcr.ErrCassetteNotFound for a missing file) and says what is wrong and what to do:
// YAML that does not decode (the line, on one line), a format version other
// than 1, an expanded size over the bound (see DefaultMaxBytes), an
// interaction without a request method and URL or without a response
// status.
func Load(path string) (*vcr.Cassette, error) {
	f, file, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := decodeFile(f, nil)
	if err != nil {
		return nil, fmt.Errorf("cassette %s: %w", file, err)
	}
	return c, nil
}

// openFile opens the cassette file at path (".yaml" added when missing),
// with Load's errors; file is its name.
func openFile(path string) (f *os.File, file string, err error) {
	file = strings.TrimSuffix(path, ".yaml") + ".yaml"
	f, err = os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, file, fmt.Errorf("cassette %s: %w: no such file", file, vcr.ErrCassetteNotFound)
	}
	if err != nil {
		return nil, file, fmt.Errorf("cassette %s: %w", file, err)
	}
	return f, file, nil
}

// loadAnswers is Load for a replay (Open): the answers written as literal
// block scalars or double-quoted stay in the file, which stays open for
// the replay to read them from (answer.go), unless there are none. answers
// is nil when every answer is in memory.
func loadAnswers(path string) (c *vcr.Cassette, answers *fileAnswers, err error) {
	f, file, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	var spans map[int]*blockSpan
	st, err := f.Stat()
	if err == nil && st.Mode().IsRegular() {
		spans = map[int]*blockSpan{}
	}
	c, err = decodeFile(f, spans)
	if err != nil || len(spans) == 0 {
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("cassette %s: %w", file, err)
		}
		return c, nil, nil
	}
	return c, &fileAnswers{f: f, name: file, size: st.Size(), mod: st.ModTime(), spans: spans}, nil
}

// DecodeFile decodes and checks the cassette file at path (the name as
// it is) as it reads it, never holding its bytes whole; its errors are
// Decode's, or the file's own.
func DecodeFile(path string) (*vcr.Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeFile(f, nil)
}

// decodeFile decodes f as it reads it: the fast path (vcryaml.go) first,
// for a regular file, leaving the answers it can in the file when spans is
// not nil (decodeVCR); yaml.v3 reads the file again from its start when
// the fast path declines it.
func decodeFile(f *os.File, spans map[int]*blockSpan) (*vcr.Cassette, error) {
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return decode(spans, func(c *vcr.Cassette) error {
		if size > 0 {
			if decodeVCR(f, size, c, spans) == nil {
				return nil
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return err
			}
		}
		err := yaml.NewDecoder(bufio.NewReaderSize(f, 64<<10)).Decode(c)
		if err == io.EOF {
			return nil // an empty file: no document, as yaml.Unmarshal sees it
		}
		return err
	})
}

// Decode decodes and checks a cassette's bytes (see Load).
func Decode(data []byte) (*vcr.Cassette, error) {
	return decode(nil, func(c *vcr.Cassette) error {
		if decodeVCR(bytes.NewReader(data), int64(len(data)), c, nil) == nil {
			return nil
		}
		return yaml.Unmarshal(data, c)
	})
}

// decode runs unmarshal into a cassette and checks it (see Load); spans
// are the answers unmarshal left in the file, counted in its size.
func decode(spans map[int]*blockSpan, unmarshal func(*vcr.Cassette) error) (*vcr.Cassette, error) {
	var c vcr.Cassette
	if err := unmarshal(&c); err != nil {
		msg := strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")
		if strings.Contains(msg, "cannot unmarshal !!int") || strings.Contains(msg, "cannot unmarshal !!float") {
			msg += " (a number too large for its field, or not a whole number)"
		}
		return nil, fmt.Errorf("%w: not a go-vcr v2 cassette: %s; fix that line or re-record the cassette (agentvcr run ... -record PATH)", ErrBadCassette, msg)
	}
	if c.Version != cassetteFormat {
		hint := "re-record it with agentvcr run ... -record PATH"
		if c.Version > cassetteFormat {
			hint = "it was written by go-vcr v3 or later, whose format go-vcr v2.1.0 cannot replay; " + hint
		}
		return nil, fmt.Errorf("%w: format version %d, agentvcr replays version %d only: %s", ErrBadCassette, c.Version, cassetteFormat, hint)
	}
	limit, err := maxBytes()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadCassette, err)
	}
	var size int64
	for n, i := range c.Interactions {
		if i == nil || i.Request.Method == "" || i.Request.URL == "" {
			return nil, fmt.Errorf("%w: interaction %d has no request (method and url): re-record the cassette, or delete the interaction", ErrBadCassette, n+1)
		}
		if i.Response.Code < 100 || i.Response.Code > 999 {
			what := "no response (no status code)"
			if i.Response.Code != 0 {
				what = fmt.Sprintf("a response with status code %d", i.Response.Code)
			}
			return nil, fmt.Errorf("%w: interaction %d has %s: re-record the cassette, or delete the interaction", ErrBadCassette, n+1, what)
		}
		size += int64(len(i.Request.URL) + len(i.Request.Body) + len(i.Response.Body))
		if span := spans[n]; span != nil {
			size += span.size
		}
		if size > limit {
			return nil, fmt.Errorf("%w: its interactions expand to more than the limit of %d MiB (YAML aliases count each time they are used; %d of %d interactions counted): if the file is yours, raise the limit with %s=N (MiB)",
				ErrBadCassette, limit>>20, n+1, len(c.Interactions), MaxBytesEnv)
		}
	}
	return &c, nil
}
