package cassette

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
)

func TestRedactInteraction(t *testing.T) {
	c := &Cassette{opts: Options{Secrets: []string{"", "tok", "tok-long-secret"}}}
	live := http.Header{"Authorization": {"Bearer tok"}, "Content-Type": {"application/json"}}
	i := &vcr.Interaction{
		Request: vcr.Request{
			Body:    `{"messages":[{"content":"my key is tok-long-secret, short tok"}]}`,
			Form:    url.Values{"tok": {"x tok"}},
			Headers: live,
			URL:     "https://me:pw@gw.example/v1/chat/completions?api-version=1&Token=abc&q=tok",
			Method:  "POST",
		},
		Response: vcr.Response{
			Body:     "data: tok\n\n",
			Headers:  http.Header{"Content-Type": {"text/event-stream"}, "Set-Cookie": {"s=1"}, "Openai-Organization": {"org"}, "Date": {"today"}},
			Duration: time.Second,
		},
	}
	if err := c.redactInteraction(i); err != nil {
		t.Fatal(err)
	}
	want := &vcr.Interaction{
		Request: vcr.Request{
			Body:    `{"messages":[{"content":"my key is REDACTED, short REDACTED"}]}`,
			Form:    url.Values{"REDACTED": {"x REDACTED"}},
			Headers: http.Header{"Content-Type": {"application/json"}},
			URL:     "https://gw.example/v1/chat/completions?Token=REDACTED&api-version=1&q=REDACTED",
			Method:  "POST",
		},
		Response: vcr.Response{
			Body:    "data: REDACTED\n\n",
			Headers: http.Header{"Content-Type": {"text/event-stream"}},
		},
	}
	if diff := cmp.Diff(want, i, cmp.AllowUnexported(vcr.Response{})); diff != "" {
		t.Errorf("redacted interaction (-want +got):\n%s", diff)
	}
	if live.Get("Authorization") != "Bearer tok" {
		t.Error("redaction changed the live request's header map")
	}
}
