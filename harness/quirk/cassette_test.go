package quirk

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// baseCassette is a two-turn conversation as go-vcr saves it: turn 1 streams
// the clean fixture (two calls), turn 2's request carries their ids and
// streams a text answer, and a third request got a 429 JSON error.
func baseCassette(t *testing.T) []byte {
	t.Helper()
	sse := http.Header{"Content-Type": {"text/event-stream"}}
	req := func(body string) vcr.Request {
		return vcr.Request{Body: body, Form: map[string][]string{}, Headers: http.Header{"Content-Type": {"application/json"}},
			URL: "http://127.0.0.1:1/v1/chat/completions", Method: "POST"}
	}
	c := vcr.New("base")
	c.Interactions = []*vcr.Interaction{
		{Request: req(`{"model":"m","messages":[{"role":"user","content":"找 func"}]}`),
			Response: vcr.Response{Body: string(readFixture(t, "clean.sse")), Headers: sse, Status: "200 OK", Code: 200}},
		{Request: req(`{"model":"m","messages":[{"role":"assistant","content":"先看看代码。","tool_calls":[` +
			`{"id":"call_A1b2C3d4E5f6G7h8I9j0K1l2","type":"function","function":{"name":"grep","arguments":"{}"}},` +
			`{"id":"call_M3n4O5p6Q7r8S9t0U1v2W3x4","type":"function","function":{"name":"read_file","arguments":"{}"}}]},` +
			`{"role":"tool","content":"ok","tool_call_id":"call_A1b2C3d4E5f6G7h8I9j0K1l2"},` +
			`{"role":"tool","content":"ok","tool_call_id":"call_M3n4O5p6Q7r8S9t0U1v2W3x4"}]}`),
			Response: vcr.Response{Body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"好\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
				Headers: sse, Status: "200 OK", Code: 200}},
		{Request: req(`{"model":"m"}`),
			Response: vcr.Response{Body: `{"error":{"message":"slow down","type":"rate_limit"}}`,
				Headers: http.Header{"Content-Type": {"application/json"}}, Status: "429 Too Many Requests", Code: 429}},
	}
	out, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte("---\n"), out...)
}

func loadYAML(t *testing.T, b []byte) *vcr.Cassette {
	t.Helper()
	c := vcr.New("")
	if err := yaml.Unmarshal(b, c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestApplyQuirkToCassetteGolden(t *testing.T) {
	q, _ := ByName("ids_dropped")
	out, err := ApplyToCassette(baseCassette(t), q, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "cassette.ids_dropped.yaml.golden", out)
}

func TestApplyQuirkToCassette(t *testing.T) {
	base := baseCassette(t)
	in := loadYAML(t, base)
	for _, q := range chatQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			out, err := ApplyToCassette(base, q, 5)
			if err != nil {
				t.Fatal(err)
			}
			got := loadYAML(t, out)
			if len(got.Interactions) != 3 {
				t.Fatalf("%d interactions, want 3", len(got.Interactions))
			}
			for n, i := range got.Interactions {
				want := in.Interactions[n].Response.Body
				if n < 2 {
					b, err := q.Apply([]byte(want), 5+int64(n))
					if err != nil {
						t.Fatal(err)
					}
					want = string(b)
				}
				if diff := cmp.Diff(want, i.Response.Body); diff != "" {
					t.Errorf("interaction %d body (-want +got):\n%s", n+1, diff)
				}
			}
			wantReq := in.Interactions[1].Request.Body
			if q.DropsIDs {
				wantReq = strings.NewReplacer(`"call_A1b2C3d4E5f6G7h8I9j0K1l2"`, `"call_0_0"`,
					`"call_M3n4O5p6Q7r8S9t0U1v2W3x4"`, `"call_1_1"`).Replace(wantReq)
			}
			if diff := cmp.Diff(wantReq, got.Interactions[1].Request.Body); diff != "" {
				t.Errorf("turn 2 request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApplyQuirkToCassetteRejectsGarbage(t *testing.T) {
	q, _ := ByName("crlf")
	_, err := ApplyToCassette([]byte("interactions: [unclosed"), q, 1)
	if err == nil || !strings.HasPrefix(err.Error(), "quirk crlf: read cassette: ") {
		t.Errorf("err = %v, want a read error", err)
	}
}

// TestReadCassetteOnceApplyMany: a cassette read once gives, quirk after
// quirk (ids_dropped, which renames ids in the requests, first and again
// last), the bytes ApplyToCassette gives of the YAML: Apply leaves the
// cassette read as it was.
func TestReadCassetteOnceApplyMany(t *testing.T) {
	base := baseCassette(t)
	c, err := ReadCassette(base)
	if err != nil {
		t.Fatal(err)
	}
	dropped, _ := ByName("ids_dropped")
	quirks := slices.Concat([]Quirk{dropped}, All(), []Quirk{dropped})
	for n, q := range quirks {
		want, werr := ApplyToCassette(base, q, int64(n))
		got, err := c.Apply(q, int64(n))
		if fmt.Sprint(err) != fmt.Sprint(werr) || string(got) != string(want) {
			t.Fatalf("%s (%d): read once: %v\n%s\nApplyToCassette: %v\n%s", q.Name, n, err, got, werr, want)
		}
	}
}

// An answer whose Content-Type says event stream in another case, with
// parameters, is one: the quirk applies to it as to the lowercase one,
// never passing it through unbroken.
func TestApplyQuirkToCassetteAnyCaseEventStream(t *testing.T) {
	q, _ := ByName("index_plus_1")
	c := loadYAML(t, baseCassette(t))
	for _, i := range c.Interactions {
		if i.Response.Code == 200 {
			// a body that no longer starts with data: leaves the header as the only sign
			i.Response.Body = ": keep-alive\n\n" + i.Response.Body
			i.Response.Headers = http.Header{"Content-Type": {"Text/Event-Stream; charset=UTF-8"}}
		}
	}
	b, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ApplyToCassette(append([]byte("---\n"), b...), q, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := loadYAML(t, out).Interactions[0].Response.Body; !strings.Contains(got, `"index":2`) { // the clean turn's indexes are 0 and 1
		t.Errorf("the quirk was not applied to a Text/Event-Stream answer:\n%s", got)
	}
}
