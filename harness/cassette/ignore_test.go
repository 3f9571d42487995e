package cassette

import (
	"testing"
)

func TestIgnorePath(t *testing.T) {
	body := []byte(`{"model":"m","user":"u-1","messages":[{"role":"system","content":"now: 12:00"},{"role":"assistant","tool_calls":[{"id":"call_a","type":"function"}]},{"role":"tool","tool_call_id":"call_a","content":"ok"}]}`)
	for _, tt := range []struct {
		ignore []string
		want   string
	}{
		{nil, `{"messages":[{"content":"now: 12:00","role":"system"},{"role":"assistant","tool_calls":[{"id":"call_a","type":"function"}]},{"content":"ok","role":"tool","tool_call_id":"call_a"}],"model":"m","user":"u-1"}`},
		{[]string{"messages.0.content", "user"}, `{"messages":[{"role":"system"},{"role":"assistant","tool_calls":[{"id":"call_a","type":"function"}]},{"content":"ok","role":"tool","tool_call_id":"call_a"}],"model":"m"}`},
		{[]string{"messages.0"}, `{"messages":["(ignored)",{"role":"assistant","tool_calls":[{"id":"call_a","type":"function"}]},{"content":"ok","role":"tool","tool_call_id":"call_a"}],"model":"m","user":"u-1"}`},
		{VolatilePaths, `{"messages":[{"content":"now: 12:00","role":"system"},{"role":"assistant","tool_calls":[{"type":"function"}]},{"content":"ok","role":"tool"}],"model":"m"}`},
		{[]string{"nothing.here", "messages.9.content", "model.x"}, `{"messages":[{"content":"now: 12:00","role":"system"},{"role":"assistant","tool_calls":[{"id":"call_a","type":"function"}]},{"content":"ok","role":"tool","tool_call_id":"call_a"}],"model":"m","user":"u-1"}`},
	} {
		if got, _ := canonicalBody(body, tt.ignore); got != tt.want {
			t.Errorf("ignoring %v:\ngot  %s\nwant %s", tt.ignore, got, tt.want)
		}
	}
}

// Two runs of one agent differ in their session fields and the call ids it
// made up: KeyOf tells them apart, KeyIgnoring with VolatilePaths matches
// them, in every format's shape.
func TestVolatilePathsMatchTwoRuns(t *testing.T) {
	for _, tt := range []struct{ format, one, two string }{
		{"chat", `{"user":"a","prompt_cache_key":"s1","messages":[{"role":"assistant","tool_calls":[{"id":"c1"}]},{"role":"tool","tool_call_id":"c1"}]}`,
			`{"user":"b","prompt_cache_key":"s2","messages":[{"role":"assistant","tool_calls":[{"id":"c9"}]},{"role":"tool","tool_call_id":"c9"}]}`},
		{"messages", `{"metadata":{"user_id":"session_1"},"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t1"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"}]}]}`,
			`{"metadata":{"user_id":"session_2"},"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t2"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2"}]}]}`},
		{"responses", `{"safety_identifier":"x","client_metadata":{"t":"1"},"input":[{"type":"function_call","id":"fc_1","call_id":"c1"},{"type":"function_call_output","call_id":"c1"}]}`,
			`{"safety_identifier":"y","client_metadata":{"t":"2"},"input":[{"type":"function_call","id":"fc_2","call_id":"c2"},{"type":"function_call_output","call_id":"c2"}]}`},
		{"gemini", `{"contents":[{"parts":[{"functionCall":{"id":"g1","name":"grep"}}]},{"parts":[{"functionResponse":{"id":"g1","name":"grep"}}]}]}`,
			`{"contents":[{"parts":[{"functionCall":{"id":"g2","name":"grep"}}]},{"parts":[{"functionResponse":{"id":"g2","name":"grep"}}]}]}`},
	} {
		if KeyOf("POST", "/v1/x", []byte(tt.one)).Matches(KeyOf("POST", "/v1/x", []byte(tt.two))) {
			t.Errorf("%s: the two runs match without ignoring", tt.format)
		}
		if !KeyIgnoring("POST", "/v1/x", []byte(tt.one), VolatilePaths).Matches(KeyIgnoring("POST", "/v1/x", []byte(tt.two), VolatilePaths)) {
			t.Errorf("%s: the two runs differ ignoring VolatilePaths:\n%s\n%s", tt.format,
				KeyIgnoring("POST", "/v1/x", []byte(tt.one), VolatilePaths).Text(), KeyIgnoring("POST", "/v1/x", []byte(tt.two), VolatilePaths).Text())
		}
	}
}
