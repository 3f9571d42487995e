package sse

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An unframed line that is a JSON object with an "error" member is an
// error event of its own, between events or inside one (the event being
// built comes first); any other unframed line is ignored, as the SSE
// standard says.
func TestUnframedErrorLine(t *testing.T) {
	const cancelled = `{"error":{"code":499,"message":"The operation was cancelled.","status":"CANCELLED"}}`
	tests := []struct {
		name, in string
		want     []wantEvent
	}{
		{"between events", "data: a\r\n\r\ndata: b\r\n\r\n" + cancelled + "\r\n",
			[]wantEvent{{Data: "a"}, {Data: "b"}, {Error: true, Data: cancelled}}},
		{"inside an event", "data: a\n" + cancelled + "\ndata: b\n\n",
			[]wantEvent{{Data: "a"}, {Error: true, Data: cancelled}, {Data: "b"}}},
		{"at the end without a line end", "data: a\n\n" + cancelled,
			[]wantEvent{{Data: "a"}, {Error: true, Data: cancelled}}},
		{"an object without error", "data: a\n\n{\"status\":\"CANCELLED\"}\n\n", []wantEvent{{Data: "a"}}},
		{"error only nested", "data: a\n\n{\"x\":{\"error\":1}}\n\n", []wantEvent{{Data: "a"}}},
		{"not JSON", "data: a\n\n{\"error\": \n\n", []wantEvent{{Data: "a"}}},
		{"a key that only folds to error", "data: a\n\n{\"Error\":1}\n\n", []wantEvent{{Data: "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readEvents(t, strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(refEvents(tt.in), got); diff != "" {
				t.Errorf("the reference framing disagrees (-ref +got):\n%s", diff)
			}
		})
	}
}
