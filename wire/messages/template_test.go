package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
	"github.com/google/go-cmp/cmp"
)

// templateAfter returns a template that remembered the event first, when
// the scanner read it as a content_block_delta.
func templateAfter(first string) *deltaTemplate {
	ts := new(eventTemplates)
	scanEventTemplate([]byte(first), new(blockDelta), ts)
	return &ts.delta
}

// checkTemplateMatch: when the template matches event, encoding/json reads
// event as a content_block_delta with the same index, type and text.
func checkTemplateMatch(t *testing.T, tmpl *deltaTemplate, event string) bool {
	t.Helper()
	var got blockDelta
	if !tmpl.match([]byte(event), &got) {
		return false
	}
	var ev msgEvent
	if err := json.Unmarshal([]byte(event), &ev); err != nil {
		t.Fatalf("template matched %s, encoding/json says %v", event, err)
	}
	var want blockDelta
	if ev.Type != "content_block_delta" || ev.Index == nil || !decodedDelta(&ev, &want) {
		t.Fatalf("template matched %s, which encoding/json reads as %+v", event, ev)
	}
	gotText := string(jsonscan.AppendUnquoted(nil, got.value))
	if got.index != want.index || got.typ != want.typ || gotText != string(want.value) || !got.quoted {
		t.Fatalf("template read %s as index %d, %s %q; encoding/json as index %d, %s %q", event, got.index, got.typ, gotText, want.index, want.typ, want.value)
	}
	return true
}

const argsDelta = `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a"}}`

// TestDeltaTemplate: an event matches the template only when it is the
// remembered delta with another index and text, and it then reads as
// encoding/json reads it; other events are never remembered.
func TestDeltaTemplate(t *testing.T) {
	textDelta := `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`
	tests := []struct {
		reason, first, next string
		match               bool
	}{
		{"another index and text", argsDelta, strings.Replace(strings.Replace(argsDelta, `"index":1,`, `"index":7,`, 1), `{\"a`, `\u00e9\"\n`, 1), true},
		{"the same event", argsDelta, argsDelta, true},
		{"a text delta", textDelta, strings.Replace(textDelta, `"Hi"`, `"\ud83d\ude00 there"`, 1), true},
		{"an empty text", textDelta, strings.Replace(textDelta, `"Hi"`, `""`, 1), true},
		{"an index with a fraction", argsDelta, strings.Replace(argsDelta, `"index":1,`, `"index":1.0,`, 1), false},
		{"a null index", argsDelta, strings.Replace(argsDelta, `"index":1,`, `"index":null,`, 1), false},
		{"null text", argsDelta, strings.Replace(argsDelta, `"{\"a"`, `null`, 1), false},
		{"invalid UTF-8", argsDelta, strings.Replace(argsDelta, `{\"a`, "\xff", 1), false},
		{"another delta type", argsDelta, strings.Replace(textDelta, `"index":0,`, `"index":1,`, 1), false},
		{"a second text member", argsDelta, strings.Replace(argsDelta, `"}}`, `","partial_json":"b"}}`, 1), false},
		{"a duplicate type after the end", argsDelta, strings.TrimSuffix(argsDelta, "}") + `,"type":"ping"}`, false},
		{"whitespace", argsDelta, strings.Replace(argsDelta, `"index":1,`, `"index": 1,`, 1), false},
		{"cut short", argsDelta, argsDelta[:len(argsDelta)-1], false},
		{"a key in another case", argsDelta, strings.Replace(argsDelta, `"index"`, `"Index"`, 1), false},
		{"a start is not remembered", `{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`, `{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`, false},
		{"a stop is not remembered", `{"type":"content_block_stop","index":1}`, `{"type":"content_block_stop","index":2}`, false},
	}
	for _, tt := range tests {
		if got := checkTemplateMatch(t, templateAfter(tt.first), tt.next); got != tt.match {
			t.Errorf("%s: matched = %v, want %v\nfirst %s\nnext  %s", tt.reason, got, tt.match, tt.first, tt.next)
		}
	}
}

// FuzzDeltaTemplate: whenever a template remembered from one event matches
// another, encoding/json reads the other as the template does; and a stream
// of the two events merges to the same turn and error with and without the
// fast paths.
func FuzzDeltaTemplate(f *testing.F) {
	f.Add(argsDelta, strings.Replace(argsDelta, `"index":1,`, `"index":2,`, 1))
	f.Add(argsDelta, strings.Replace(argsDelta, `{\"a`, `\ud800`, 1))
	f.Add(argsDelta, strings.Replace(argsDelta, `"index":1,`, `"index":-0,`, 1))
	f.Add(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}`, `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"\u00e9"}}`)
	f.Add(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}}`, `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"t"}}`)
	f.Add(`{"type":"content_block_stop","index":1}`, `{"type":"content_block_stop","index":0}`)
	f.Add(`{"type":"content_block_stop","index":1}`, `{"type":"content_block_stop","index":7}`)
	f.Add(`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t2","name":"grep","input":{}}}`, `{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"t3","name":"glob","input":{}}}`)
	f.Add(`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`, `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`)
	prefix := `data: {"type":"message_start","message":{"id":"msg_1"}}` + "\n\n" +
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		`data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"glob","input":{}}}` + "\n\n"
	f.Fuzz(func(t *testing.T, first, next string) {
		first, next = strings.TrimSpace(first), strings.TrimSpace(next)
		checkTemplateMatch(t, templateAfter(first), next)
		if strings.ContainsAny(first+next, "\r\n") {
			return // one data line each
		}
		stream := prefix + "data: " + first + "\n\ndata: " + next + "\n\ndata: " + next + "\n\n"
		fastTurn, fastErr := merge(strings.NewReader(stream), false)
		jsonTurn, jsonErr := merge(strings.NewReader(stream), true)
		if diff := cmp.Diff(jsonTurn, fastTurn); diff != "" {
			t.Errorf("turn (-json +fast):\n%s", diff)
		}
		if fmt.Sprint(fastErr) != fmt.Sprint(jsonErr) {
			t.Errorf("error %v, encoding/json gave %v", fastErr, jsonErr)
		}
	})
}

// TestStopTemplate: a content_block_stop matches the stop template only
// when it is the remembered one with another integer index, which is then
// the index encoding/json reads.
func TestStopTemplate(t *testing.T) {
	const stop = `{"type":"content_block_stop","index":1}`
	tests := []struct {
		reason, first, next string
		match               bool
	}{
		{"another index", stop, `{"type":"content_block_stop","index":42}`, true},
		{"the same event", stop, stop, true},
		{"a fraction", stop, `{"type":"content_block_stop","index":4.0}`, false},
		{"a null index", stop, `{"type":"content_block_stop","index":null}`, false},
		{"no index", stop, `{"type":"content_block_stop"}`, false},
		{"a member more", stop, `{"type":"content_block_stop","index":4,"index":5}`, false},
		{"a delta", stop, argsDelta, false},
		{"a stop without an index is not remembered", `{"type":"content_block_stop"}`, `{"type":"content_block_stop"}`, false},
	}
	for _, tt := range tests {
		ts := new(eventTemplates)
		scanEventTemplate([]byte(tt.first), new(blockDelta), ts)
		var d blockDelta
		got := ts.stop.match([]byte(tt.next), &d)
		index := d.index
		if got != tt.match {
			t.Errorf("%s: matched = %v, want %v", tt.reason, got, tt.match)
			continue
		}
		if !got {
			continue
		}
		var ev msgEvent
		if err := json.Unmarshal([]byte(tt.next), &ev); err != nil || ev.Type != "content_block_stop" || ev.Index == nil || *ev.Index != index {
			t.Errorf("%s: template read index %d; encoding/json %+v, %v", tt.reason, index, ev, err)
		}
	}
}

// TestStartTemplate: a content_block_start matches the start template only
// when it is the remembered one with another index (and, for a tool_use,
// another plain id and name), which encoding/json then reads the same.
func TestStartTemplate(t *testing.T) {
	const tool = `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"glob","input":{}}}`
	const text = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	tests := []struct {
		reason, first, next string
		match               bool
	}{
		{"another tool_use", tool, `{"type":"content_block_start","index":7,"content_block":{"type":"tool_use","id":"toolu_abc","name":"read_file","input":{}}}`, true},
		{"another text block", text, strings.Replace(text, `"index":0`, `"index":3`, 1), true},
		{"an id with an escape", tool, strings.Replace(tool, `"toolu_1"`, `"toolu\u005f1"`, 1), false},
		{"a name outside ASCII", tool, strings.Replace(tool, `"glob"`, `"glöb"`, 1), false},
		{"a null id", tool, strings.Replace(tool, `"toolu_1"`, `null`, 1), false},
		{"an input", tool, strings.Replace(tool, `"input":{}`, `"input":{"a":1}`, 1), false},
		{"text in a text block", text, strings.Replace(text, `"text":""`, `"text":"x"`, 1), false},
		{"a text block after a tool_use", tool, text, false},
		{"the block before the index is not remembered", `{"type":"content_block_start","content_block":{"type":"tool_use","id":"toolu_1","name":"glob","input":{}},"index":1}`, `{"type":"content_block_start","content_block":{"type":"tool_use","id":"toolu_1","name":"glob","input":{}},"index":2}`, false},
	}
	for _, tt := range tests {
		ts := new(eventTemplates)
		scanEventTemplate([]byte(tt.first), new(blockDelta), ts)
		var d blockDelta
		got := ts.start.match([]byte(tt.next), &d)
		if got != tt.match {
			t.Errorf("%s: matched = %v, want %v", tt.reason, got, tt.match)
			continue
		}
		if !got {
			continue
		}
		var ev msgEvent
		if err := json.Unmarshal([]byte(tt.next), &ev); err != nil || ev.Type != "content_block_start" || ev.Index == nil || ev.ContentBlock == nil {
			t.Fatalf("%s: encoding/json %+v, %v", tt.reason, ev, err)
		}
		cb := ev.ContentBlock
		if *ev.Index != d.index || cb.Type != d.start.typ || cb.ID != string(d.start.id) || cb.Name != string(d.start.name) {
			t.Errorf("%s: template read %d %s %s %s; encoding/json %d %s %s %s", tt.reason, d.index, d.start.typ, d.start.id, d.start.name, *ev.Index, cb.Type, cb.ID, cb.Name)
		}
	}
}

// TestTemplatesTakeTheBenchStream: every content_block_delta, _stop and
// _start of the benchmark stream but the first of its type is read through
// that type's template.
func TestTemplatesTakeTheBenchStream(t *testing.T) {
	stream, _ := benchstream.Messages(64 << 10)
	m := msgMerger{}
	if _, err := sse.Each(bytes.NewReader(stream), func(data []byte, _ bool) (bool, error) { return false, m.add(data) }); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		typ  string
		hits int
	}{
		{"content_block_delta", m.tmpl.delta.hits},
		{"content_block_stop", m.tmpl.stop.hits},
		{"content_block_start", m.tmpl.start.hits},
	} {
		events := bytes.Count(stream, []byte(`data: {"type":"`+tt.typ+`"`))
		if tt.hits != events-1 {
			t.Errorf("%d %s events matched the template, want %d (every one but the first)", tt.hits, tt.typ, events-1)
		}
	}
}
