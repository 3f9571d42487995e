package responses

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
)

// templateAfter returns a template that remembered the event first, when
// the scanner read it as a delta event.
func templateAfter(first []byte) *respTemplates {
	t := new(respTemplates)
	scanRespDeltaTemplate(first, new(respDelta), t)
	return t
}

// checkTemplateMatch: when the template matches data, encoding/json decodes
// data to the members the template read.
func checkTemplateMatch(t *testing.T, tmpl *respTemplates, data []byte) bool {
	t.Helper()
	var d respDelta
	if !tmpl.match(data, &d) {
		return false
	}
	checkFastDelta(t, data, &d)
	return true
}

const itemAdded = `{"type":"response.output_item.added","sequence_number":3,"output_index":1,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"glob"}}`

const argsEvent = `{"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_1","output_index":1,"delta":"{\"a","obfuscation":"x3Fq"}`

// TestRespTemplate: an event matches the template only when it is the
// remembered delta with other values of the same kind in its holes, and it
// then reads as encoding/json reads it; other events are never remembered.
func TestRespTemplate(t *testing.T) {
	textEvent := `{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}`
	tests := []struct {
		reason, first, next string
		match               bool
	}{
		{"other values in every hole", argsEvent, `{"type":"response.function_call_arguments.delta","sequence_number":1234,"item_id":"fc_22","output_index":-2,"delta":"\u00e9\"","obfuscation":"q"}`, true},
		{"the same event", argsEvent, argsEvent, true},
		{"a text delta", textEvent, strings.Replace(strings.Replace(textEvent, `"Hi"`, `"中文"`, 1), `"content_index":0`, `"content_index":3`, 1), true},
		{"an item id with an escape", argsEvent, strings.Replace(argsEvent, `"fc_1"`, `"fc\u005f1"`, 1), false},
		{"an item id outside ASCII", argsEvent, strings.Replace(argsEvent, `"fc_1"`, `"fc_é"`, 1), false},
		{"a sequence number with a fraction", argsEvent, strings.Replace(argsEvent, `:7,`, `:7.5,`, 1), false},
		{"an output index as a string", argsEvent, strings.Replace(argsEvent, `"output_index":1`, `"output_index":"1"`, 1), false},
		{"a null delta", argsEvent, strings.Replace(argsEvent, `"{\"a"`, `null`, 1), false},
		{"invalid UTF-8 in the delta", argsEvent, strings.Replace(argsEvent, `{\"a`, "\xff", 1), false},
		{"obfuscation that is not a string", argsEvent, strings.Replace(argsEvent, `"x3Fq"`, `12`, 1), false},
		{"a member in another case", argsEvent, strings.Replace(argsEvent, `"item_id"`, `"Item_id"`, 1), false},
		{"a member more", argsEvent, strings.TrimSuffix(argsEvent, "}") + `,"delta":"b"}`, false},
		{"another type", argsEvent, strings.Replace(argsEvent, `arguments.delta`, `arguments.done`, 1), false},
		{"whitespace", argsEvent, strings.Replace(argsEvent, `"delta":"`, `"delta": "`, 1), false},
		{"cut short", argsEvent, argsEvent[:len(argsEvent)-1], false},
		{"a done event", `{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"arguments":"{}"}`, `{"type":"response.function_call_arguments.done","item_id":"fc_2","output_index":2,"arguments":"{\"a\":1}"}`, true},
		{"a done event of text", `{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":0,"text":"Hi"}`, `{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":1,"text":"中文"}`, true},
		{"a done event with a name is not remembered", `{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"name":"glob","arguments":"{}"}`, `{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"name":"glob","arguments":"{}"}`, false},
		{"a delta after a done event", `{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"arguments":"{}"}`, `{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":1,"delta":"{}"}`, false},
		{"an item added", itemAdded, `{"type":"response.output_item.added","sequence_number":40,"output_index":12,"item":{"id":"fc_12","type":"function_call","status":"in_progress","arguments":"{\"a\":\"\u00e9\"}","call_id":"call_12","name":"read_file"}}`, true},
		{"an item whose id has an escape", itemAdded, strings.Replace(itemAdded, `"fc_1"`, `"fc\u005f1"`, 1), false},
		{"an item whose name is not ASCII", itemAdded, strings.Replace(itemAdded, `"glob"`, `"glöb"`, 1), false},
		{"an item whose arguments are an object", itemAdded, strings.Replace(itemAdded, `"arguments":""`, `"arguments":{}`, 1), false},
		{"an item of another type", itemAdded, strings.Replace(itemAdded, `"function_call"`, `"custom_tool_call"`, 1), false},
		{"an item done after an item added", itemAdded, strings.Replace(strings.Replace(itemAdded, `added`, `done`, 1), `in_progress`, `completed`, 1), false},
		{"an item without an id is remembered without that hole", strings.Replace(itemAdded, `"id":"fc_1",`, ``, 1), strings.Replace(strings.Replace(itemAdded, `"id":"fc_1",`, ``, 1), `"call_1"`, `"call_2"`, 1), true},
		{"nor an event with more holes than a template keeps", strings.TrimSuffix(argsEvent, "}") + `,"a":"1","b":"2"}`, strings.TrimSuffix(argsEvent, "}") + `,"a":"1","b":"2"}`, false},
	}
	for _, tt := range tests {
		if got := checkTemplateMatch(t, templateAfter([]byte(tt.first)), []byte(tt.next)); got != tt.match {
			t.Errorf("%s: matched = %v, want %v\nfirst %s\nnext  %s", tt.reason, got, tt.match, tt.first, tt.next)
		}
	}
}

// FuzzRespTemplate: whenever a template remembered from one event matches
// another, encoding/json decodes the other to the members the template read.
func FuzzRespTemplate(f *testing.F) {
	f.Add([]byte(argsEvent), []byte(strings.Replace(argsEvent, `:7,`, `:8,`, 1)))
	f.Add([]byte(argsEvent), []byte(strings.Replace(argsEvent, `"x3Fq"`, `"\u0000"`, 1)))
	f.Add([]byte(`{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"a","logprobs":[]}`), []byte(`{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":1,"delta":"\ud800","logprobs":[]}`))
	f.Add([]byte(`{"type":"response.function_call_arguments.done","sequence_number":9,"item_id":"fc_1","output_index":1,"arguments":"{}"}`), []byte(`{"type":"response.function_call_arguments.done","sequence_number":10,"item_id":"fc_2","output_index":2,"arguments":"{\"a\":\"\u00e9\"}"}`))
	f.Add([]byte(itemAdded), []byte(strings.Replace(itemAdded, `"glob"`, `"grep"`, 1)))
	f.Add([]byte(itemAdded), []byte(strings.Replace(itemAdded, `"arguments":""`, `"arguments":"\ud800"`, 1)))
	f.Fuzz(func(t *testing.T, first, next []byte) {
		checkTemplateMatch(t, templateAfter(bytes.TrimSpace(first)), bytes.TrimSpace(next))
	})
}

// TestRespTemplateTakesTheBenchStream: every argument delta of the
// benchmark stream but the first is read through the template, though its
// obfuscation changes on every event.
func TestRespTemplateTakesTheBenchStream(t *testing.T) {
	stream, _ := benchstream.Responses(64 << 10)
	m := respMerger{items: newRespItems()}
	if _, err := sse.Each(bytes.NewReader(stream), func(data []byte, isError bool) (bool, error) {
		return false, m.add(data, isError)
	}); err != nil {
		t.Fatal(err)
	}
	deltas := bytes.Count(stream, []byte(`data: {"type":"response.function_call_arguments.delta"`))
	if m.tmpl.delta.hits != deltas-1 {
		t.Fatalf("%d events matched the template, want %d (every delta but the first)", m.tmpl.delta.hits, deltas-1)
	}
	for _, c := range []struct {
		typ  string
		hits int
	}{{"response.output_item.added", m.tmpl.added.hits}, {"response.output_item.done", m.tmpl.itemDone.hits}} {
		if n := bytes.Count(stream, []byte(`data: {"type":"`+c.typ+`"`)); c.hits != n-1 {
			t.Fatalf("%d %s events matched the template, want %d", c.hits, c.typ, n-1)
		}
	}
	dones := bytes.Count(stream, []byte(`data: {"type":"response.function_call_arguments.done"`))
	if m.tmpl.done.hits != dones-1 {
		t.Fatalf("%d done events matched the template, want %d (every one but the first)", m.tmpl.done.hits, dones-1)
	}
}
