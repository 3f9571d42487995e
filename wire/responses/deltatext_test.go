package responses

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDeltaText: deltaText gives what encoding/json decodes, for every JSON
// value (its fast path unquotes valid UTF-8 string literals itself).
func FuzzDeltaText(f *testing.F) {
	for _, s := range []string{`"a \/ b"`, `"\ud83d\ude00 \u00e9 \ud800 x"`, `""`, "\"\xff\"", `"\"\\\n"`, `{"a": 1}`, `null`, ` "x" `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		got, isString := deltaText(raw)
		trimmed := bytes.TrimSpace(raw)
		if trimmed[0] != '"' {
			return
		}
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if !isString || got == nil || string(got) != want {
			t.Errorf("deltaText(%q) = %q, %v; encoding/json gives %q", raw, got, isString, want)
		}
	})
}
