package serve

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// An Answer may break its own reply with a stream fault, in place of the
// route's: conform breaks a case's first attempt only.
func TestServeReplyFaultBreaksThatReplyOnly(t *testing.T) {
	body := "data: {\"n\":1}\n\ndata: {\"n\":2}\n\ndata: {\"n\":3}\n\ndata: [DONE]\n\n"
	var calls atomic.Int64
	s := &Server{Route: func(string) (*Route, error) {
		return &Route{Answer: func(Request) (Reply, error) {
			r := Reply{Body: []byte(body)}
			if calls.Add(1) == 1 {
				r.Fault = Fault{Kind: FaultReset, After: 2}
			}
			return r, nil
		}}, nil
	}}
	base := serveOn(t, s)
	post := func() (string, error) {
		resp, err := http.Post(ScenarioURL(base, "x")+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		return string(got), err
	}
	got, err := post()
	if want := "data: {\"n\":1}\n\ndata: {\"n\":2}\n\n"; got != want || err != io.ErrUnexpectedEOF {
		t.Errorf("first reply = %q, %v; want %q, unexpected EOF", got, err, want)
	}
	got, err = post()
	if got != body || err != nil {
		t.Errorf("second reply = %q, %v; want the whole body", got, err)
	}
}
