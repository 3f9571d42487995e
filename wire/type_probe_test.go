package wire

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// typeEdges are data where a one-pass read of "type" could part from
// encoding/json's: keys that fold to "type", escapes, null, duplicates,
// other values than objects, invalid and trailing data.
var typeEdges = []string{
	`{"type":"message_start"}`, `{"id":"x","type":"response.created","n":[1,{"type":"no"}]}`, `{"choices":[]}`,
	`{"TYPE":"x"}`, `{"Type":"x"}`, `{"type":"a","Type":"b"}`, `{"type":"a","type":"b"}`, `{"type":"a","type":null}`,
	`{"type":null}`, `{"type":1}`, `{"type":{"a":1}}`, `{"type":"a\u0062"}`, `{"typ\u0065":"x"}`, `{"type":"` + "\xff" + `"}`,
	`{"type":"x"}x`, ` {"type" : "x"} `, `{"type":"x",}`, `{"a":01,"type":"x"}`, `null`, `[]`, `"x"`, `1`, ``, `{`,
	`{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `,"type":"deep"}`,
}

// TestScanDataTypeIsDecode: where the one-pass read is sure, it reads the
// type encoding/json reads, on every data line of every stream fixture and
// on the edges above; it is sure of almost every fixture line.
func TestScanDataTypeIsDecode(t *testing.T) {
	for _, e := range typeEdges {
		checkDataType(t, []byte(e))
	}
	lines, scanned := 0, 0
	for _, data := range streamtest.FixtureData(t, ".") {
		checkDataType(t, data)
		lines++
		if _, _, sure := scanDataType(data); sure {
			scanned++
		}
	}
	if lines < 1000 || scanned < lines*9/10 {
		t.Errorf("the scan was sure of %d of %d data lines: want at least 1000 lines, 90 %%", scanned, lines)
	}
}

func checkDataType(t *testing.T, data []byte) {
	t.Helper()
	want, wok := decodeDataType(data)
	if got, ok, sure := scanDataType(data); sure && (got != want || ok != wok) {
		t.Errorf("%q: scanned type %q (%v), decoded %q (%v)", data, got, ok, want, wok)
	}
	if got, ok := dataType(data); got != want || ok != wok {
		t.Errorf("%q: dataType %q (%v), decoded %q (%v)", data, got, ok, want, wok)
	}
}

// FuzzScanDataType: on any data the one-pass read, when sure, reads the
// type as encoding/json does.
func FuzzScanDataType(f *testing.F) {
	for _, e := range typeEdges {
		f.Add([]byte(e))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDataType(t, data) })
}
