package gemini

import (
	"bytes"
	"testing"

	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// claimEdges are data where a scan of the top-level keys could part from
// encoding/json's: nested claim keys, escaped and duplicate keys, other
// values than objects, invalid and trailing data, deep nesting.
var claimEdges = []string{
	`{"candidates":[]}`, `{"choices":[],"candidates":[]}`, `{"x":{"candidates":1}}`, `{"error":{"code":503}}`,
	`{"c\u0061ndidates":1}`, `{"candidates":1,"candidates":2}`, ` {"responseId" : "r"} `, `{"modelVersion":"m"}x`,
	`{"usageMetadata":}`, `{"promptFeedback":{"a":[1,2,{"b":null}]},"choices":null}`, `null`, `[]`, `"x"`, `{}`, ``,
	`{"candidates":[` + string(bytes.Repeat([]byte("["), 300)) + string(bytes.Repeat([]byte("]"), 300)) + `]}`,
	`{"candidates":"` + "\xff" + `"}`, `{"candidates":01}`, `{"candidates":1,}`, "{\"responseId\":\"a\x01\"}",
}

// TestScanClaimIsDecodeClaim: where the scan decides, it decides as
// encoding/json's reading does, on every data line of every stream fixture
// (all formats) and on the edges above; it decides on every fixture line
// that is an object.
func TestScanClaimIsDecodeClaim(t *testing.T) {
	for _, e := range claimEdges {
		checkClaim(t, []byte(e))
	}
	decided, claimed := 0, 0
	for _, data := range streamtest.FixtureData(t, "..") {
		if !bytes.HasPrefix(data, []byte("{")) {
			continue
		}
		checkClaim(t, data)
		if claims, ok := scanClaim(data); ok {
			decided++
			if claims {
				claimed++
			}
		}
	}
	if decided < 1000 || claimed < 30 {
		t.Errorf("the scan decided %d data lines and claimed %d: want at least 1000 and 30", decided, claimed)
	}
}

func checkClaim(t *testing.T, data []byte) {
	t.Helper()
	want := decodeClaim(data)
	if got, ok := scanClaim(data); ok && got != want {
		t.Errorf("%q: scanned claim %v, decoded %v", data, got, want)
	}
	if got := isStreamEvent("", data); got != want {
		t.Errorf("%q: isStreamEvent %v, decoded %v", data, got, want)
	}
}

// FuzzScanClaim: on any data the scan decides as encoding/json's reading.
func FuzzScanClaim(f *testing.F) {
	for _, e := range claimEdges {
		f.Add([]byte(e))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkClaim(t, data) })
}
