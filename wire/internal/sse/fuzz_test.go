package sse

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

var lineEnds = regexp.MustCompile(`\r\n|\r|\n`)

// refEvents is the SSE framing written the plain way, on a whole string:
// the reference the buffered reader is compared with.
func refEvents(in string) []wantEvent {
	in = strings.TrimPrefix(in, "\uFEFF")
	lines := lineEnds.Split(in, -1)
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the input ended with a line end
	}
	var out []wantEvent
	var data []string
	isData, isErr := false, false
	dispatch := func() {
		if isData || isErr {
			out = append(out, wantEvent{Error: isErr, Data: strings.Join(data, "\n")})
		}
		data, isData, isErr = nil, false, false
	}
	for _, line := range lines {
		if line == "" {
			dispatch()
			continue
		}
		if line[0] == ':' {
			continue
		}
		var obj map[string]json.RawMessage
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &obj) == nil {
			if _, ok := obj["error"]; ok {
				dispatch()
				out = append(out, wantEvent{Error: true, Data: line})
				continue
			}
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			data, isData = append(data, value), true
		case "event":
			isErr = value == "error"
		}
	}
	dispatch()
	return out
}

// FuzzSSEReader: any bytes, read whole, one byte at a time or in random
// pieces, give the events of the plain reference framing (line ends of any
// kind, a CR at the end of one read and its LF in the next, a BOM).
func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{
		"data: a\r\rdata: b\r\n\r\n", "\uFEFFdata: x\n\n", "\r\r\r\n\n\rdata\r", "event: error\rdata:1\r\n\r",
		"data: a\ndata: b\r\n: c\rid: 1\n\n", strings.Repeat("\r", 70000) + "data: z\n\n",
	} {
		f.Add([]byte(s), uint64(1), uint16(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, maxPiece uint16) {
		want := refEvents(string(in))
		for name, r := range map[string]func() ([]wantEvent, error){
			"whole": func() ([]wantEvent, error) { return readEvents(t, strings.NewReader(string(in))) },
			"byte":  func() ([]wantEvent, error) { return readEvents(t, iotest.OneByteReader(strings.NewReader(string(in)))) },
			"pieces": func() ([]wantEvent, error) {
				return readEvents(t, streamtest.NewPieceReader(in, seed, 1+int(maxPiece)%300))
			},
		} {
			got, err := r()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: events (-reference +reader) of %q:\n%s", name, in, diff)
			}
		}
	})
}
