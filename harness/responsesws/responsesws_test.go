package responsesws

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFrameAndBody(t *testing.T) {
	f, err := ParseFrame([]byte(`{"type":"response.create","model":"m","previous_response_id":"resp_1","generate":false,"input":[{"a":1}],"stream":false,"tools":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Type != TypeCreate || f.PreviousResponseID != "resp_1" || !f.Warmup || len(f.Input) != 1 {
		t.Errorf("frame %+v", f)
	}
	got := string(f.Body([]json.RawMessage{json.RawMessage(`{"z":0}`), json.RawMessage(`{"a":1}`)}))
	want := `{"model":"m","input":[{"z":0},{"a":1}],"stream":true,"tools":[]}`
	if got != want {
		t.Errorf("Body:\n got %s\nwant %s", got, want)
	}
}

func TestParseFrameStringInput(t *testing.T) {
	f, err := ParseFrame([]byte(`{"type":"response.create","input":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(f.Body(f.Input)); got != `{"input":[{"content":"hi","role":"user"}],"stream":true}` {
		t.Errorf("Body %s", got)
	}
}

func TestParseFrameErrors(t *testing.T) {
	for _, tt := range []struct {
		frame string
		is    error
		msg   string
	}{
		{"hello", ErrNotJSON, "the frame is not JSON: invalid character 'h' looking for beginning of value"},
		{`[1]`, ErrNotObject, "the frame is not a JSON object: it starts with ["},
		{`{"a":1}{"b":2}`, ErrNotJSON, "the frame is not JSON: more follows the object"},
		{`{"a":`, ErrNotJSON, `the frame is not JSON: member "a": EOF`},
		{`{"input":5}`, ErrNotJSON, "the frame is not JSON: input is neither a list nor a string"},
	} {
		_, err := ParseFrame([]byte(tt.frame))
		if !errors.Is(err, tt.is) || err.Error() != tt.msg {
			t.Errorf("ParseFrame(%s) = %v, want %q", tt.frame, err, tt.msg)
		}
	}
}

const twoDone = "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_9\",\"output\":[]}}\n\n" +
	"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":1,\"item\":{\"n\":2}}\n\n" +
	"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"n\":1}}\n\n"

func TestHeld(t *testing.T) {
	var h Held
	h.Keep([]json.RawMessage{json.RawMessage(`{"u":1}`)}, []byte(twoDone))
	in, err := h.Resolve(Frame{PreviousResponseID: "resp_9", Input: []json.RawMessage{json.RawMessage(`{"o":1}`)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"u":1}`, `{"n":1}`, `{"n":2}`, `{"o":1}`}
	var got []string
	for _, r := range in {
		got = append(got, string(r))
	}
	if !cmp.Equal(got, want) {
		t.Errorf("Resolve (-got +want):\n%s", cmp.Diff(got, want))
	}
	completed := twoDone + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_9\",\"output\":[{\"all\":true}]}}\n\n"
	if got := OutputItems([]byte(completed)); len(got) != 1 || string(got[0]) != `{"all":true}` {
		t.Errorf("OutputItems of a completed stream: %s", got)
	}
	if _, err := h.Resolve(Frame{PreviousResponseID: "resp_x"}); !errors.Is(err, ErrPreviousNotFound) || err.Error() != `previous response not found: "resp_x"` {
		t.Errorf("Resolve of an unknown id: %v", err)
	}
	h.Max = 2
	for _, id := range []string{"a", "b", "c"} {
		h.Keep(nil, []byte(`data: {"type":"response.created","response":{"id":"`+id+`"}}`+"\n\n"))
	}
	if h.Len() != 2 {
		t.Errorf("held %d, want Max 2", h.Len())
	}
	if _, err := h.Resolve(Frame{PreviousResponseID: "a"}); err == nil {
		t.Error("the oldest is still held")
	}
}

func TestFramesAndEvent(t *testing.T) {
	frames := Frames([]byte(": comment\n\n" + twoDone + "data: [DONE]\n\n"))
	if len(frames) != 3 {
		t.Fatalf("%d frames: %q", len(frames), frames)
	}
	if got := string(Event(frames[0])); got != "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_9\",\"output\":[]}}\n\n" {
		t.Errorf("Event: %q", got)
	}
}

func TestErrorFrame(t *testing.T) {
	h := http.Header{"Retry-After": {"1"}, "Content-Type": {"application/json"}}
	got := string(ErrorFrame(429, h, []byte(`{"error":{"code":"rate_limit_exceeded","message":"slow down"}}`)))
	if want := `{"type":"error","status":429,"error":{"code":"rate_limit_exceeded","message":"slow down"},"headers":{"retry-after":"1"}}`; got != want {
		t.Errorf("ErrorFrame:\n got %s\nwant %s", got, want)
	}
	text := string(ErrorFrame(502, nil, []byte("bad gateway\n")))
	if text != `{"type":"error","status":502,"error":{"type":"server_error","code":null,"message":"bad gateway"}}` {
		t.Errorf("ErrorFrame of a text body: %s", text)
	}
	e, ok := ReadError([]byte(text))
	if !ok || e.Status != 502 || e.Message != "bad gateway" {
		t.Errorf("ReadError: %+v %v", e, ok)
	}
	if _, ok := ReadError([]byte(`{"type":"response.created"}`)); ok {
		t.Error("ReadError read an event")
	}
	e, _ = ReadError(PreviousNotFound("resp_1"))
	if e.Code != "previous_response_not_found" || e.Status != 400 {
		t.Errorf("PreviousNotFound read as %+v", e)
	}
}

func TestOutputItemsOfTheFirstResponse(t *testing.T) {
	two := "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"a\",\"output\":[{\"first\":1}]}}\n\n" +
		"data: {\"type\":\"response.created\",\"response\":{\"id\":\"b\"}}\n\n" +
		"data: {\"type\":\"response.completed\",\"response\":{\"id\":\"b\",\"output\":[{\"second\":2}]}}\n\n"
	if got := OutputItems([]byte(two)); len(got) != 1 || string(got[0]) != `{"first":1}` {
		t.Errorf("OutputItems: %s, want the first response's", got)
	}
	if !Terminal([]byte(`{"type":"response.failed"}`)) || Terminal([]byte(`{"type":"error"}`)) || Terminal([]byte(`{"type":"response.output_item.done"}`)) {
		t.Error("Terminal")
	}
}
