package responses

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDeltaText: appendDeltaText gives what encoding/json decodes, for every JSON
// value (its fast path unquotes valid UTF-8 string literals itself), and keeps
// the bytes it appends to.
func FuzzDeltaText(f *testing.F) {
	for _, s := range []string{`"a \/ b"`, `"\ud83d\ude00 \u00e9 \ud800 x"`, `""`, "\"\xff\"", `"\"\\\n"`, `{"a": 1}`, `null`, ` "x" `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		got, isString := appendDeltaText(nil, raw)
		// Appended to bytes already there (as the merger's scratch buffer
		// is, from its start), the text is the same and they are kept.
		pre := []byte("pre")
		if ext, extIsString := appendDeltaText(pre[:3:3], raw); got != nil &&
			(extIsString != isString || string(ext) != "pre"+string(got)) {
			t.Errorf("appendDeltaText(%q, %q) = %q, %v; want %q, %v", pre, raw, ext, extIsString, "pre"+string(got), isString)
		}
		trimmed := bytes.TrimSpace(raw)
		if trimmed[0] != '"' {
			return
		}
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if !isString || got == nil || string(got) != want {
			t.Errorf("appendDeltaText(nil, %q) = %q, %v; encoding/json gives %q", raw, got, isString, want)
		}
	})
}
