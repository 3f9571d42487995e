package cassette

import (
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

func TestEventTimesRoundTrip(t *testing.T) {
	at := []time.Duration{0, 412 * time.Millisecond, 412*time.Millisecond + 900*time.Microsecond, 2 * time.Second}
	s := FormatEventTimes(at)
	if s != "0,412,412,2000" {
		t.Fatalf("FormatEventTimes = %q", s)
	}
	got, err := ParseEventTimes(s)
	if want := []time.Duration{0, 412 * time.Millisecond, 412 * time.Millisecond, 2 * time.Second}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ParseEventTimes(%q) = %v, %v", s, got, err)
	}
	if got, err := ParseEventTimes(""); got != nil || err != nil {
		t.Errorf("no header: %v, %v", got, err)
	}
	for _, tt := range []struct{ in, want string }{
		{"1,x", `bad event times: event 2: "x" is no number of milliseconds`},
		{"1,,2", `bad event times: event 2: "" is no number of milliseconds`},
		{"-1", `bad event times: event 1: "-1" is no number of milliseconds`},
		{"5,4", "bad event times: event 2 arrives at 4 ms, before event 1"},
		{"99999999999", `bad event times: event 1: "99999999999" is no number of milliseconds`},
	} {
		if _, err := ParseEventTimes(tt.in); !errors.Is(err, ErrBadEventTimes) || err.Error() != tt.want {
			t.Errorf("ParseEventTimes(%q) = %v, want %s", tt.in, err, tt.want)
		}
	}
}

// The save filter keeps a response's event times that read, and nothing
// else outside the allowlist: not on a request, not a value that is no
// list of times.
func TestRedactKeepsEventTimes(t *testing.T) {
	for _, tt := range []struct{ value, want string }{{"3,5,9", "3,5,9"}, {"3,<script>", ""}, {"", ""}} {
		i := &vcr.Interaction{
			Request:  vcr.Request{Headers: http.Header{EventTimesHeader: {"1"}}, URL: "http://h/v1"},
			Response: vcr.Response{Headers: http.Header{"Content-Type": {"text/event-stream"}, EventTimesHeader: {tt.value}, "X-Request-Id": {"r"}}},
		}
		Secrets{}.RedactInteraction(i)
		if got := i.Response.Headers.Get(EventTimesHeader); got != tt.want || len(i.Request.Headers) != 0 || i.Response.Headers.Get("X-Request-Id") != "" {
			t.Errorf("%q: response %v, request %v", tt.value, i.Response.Headers, i.Request.Headers)
		}
	}
}
