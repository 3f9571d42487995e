package gemini

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// fixtureEvents are the data of every event of the fixtures, and a few
// shapes the fast path must leave to encoding/json.
func fixtureEvents(t testing.TB) [][]byte {
	var out [][]byte
	paths := streamtest.Fixtures(t, "testdata/streams")
	more, _ := filepath.Glob("../../harness/quirk/testdata/gemini_*")
	for _, path := range append(paths, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if d, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data: ")); ok {
				out = append(out, d)
			}
		}
	}
	for _, s := range []string{
		`{"candidates":[{"content":{"parts":[{"Text":"folded"}]},"index":0}]}`,
		`{"candidates":[{"content":{"parts":[{"text":"a","text":"b"}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"text":null}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"text":"\ud800 lone"}]}}]}`,
		"{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"bad \xff utf-8\"}]}}]}",
		`{"candidates":[{"index":1.5}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"g","args":null}}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"g","args":{"a":[1,{"b":"\u00e9"}]}}}]}}]} `,
		`{"candidates":[]}trailing`,
		`{"usageMetadata":{"promptTokenCount":1,"promptTokensDetails":[{"modality":"TEXT","tokenCount":1}]}}`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// The fast path reads every event it takes exactly as encoding/json does,
// and leaves the rest (folded or repeated keys, nulls, bad UTF-8, floats,
// trailing bytes) to it.
func TestScanResponseMatchesDecode(t *testing.T) {
	taken := 0
	for _, data := range fixtureEvents(t) {
		checkScan(t, data)
		var ev response
		if scanResponse(data, &ev) {
			taken++
		}
	}
	if taken < 60 {
		t.Errorf("the fast path took only %d events", taken)
	}
}

func checkScan(t *testing.T, data []byte) {
	t.Helper()
	var fast, slow response
	if !scanResponse(data, &fast) {
		return
	}
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Errorf("%s: the fast path read an event encoding/json refuses: %v", data, err)
		return
	}
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Errorf("%s: (-encoding/json +fast):\n%s", data, diff)
	}
}

func FuzzScanResponse(f *testing.F) {
	for _, data := range fixtureEvents(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}
