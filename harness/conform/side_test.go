package conform

import "testing"

// askedJSON finds the schema a side request asks its answer to fill, in
// each format's words, and sideReply's text fills its required members.
func TestAskedJSON(t *testing.T) {
	schema := `{"type":"object","properties":{"reasoning":{"type":"STRING"},"score":{"type":"INTEGER"}},"required":["reasoning","score"]}`
	tests := []struct {
		reason, body string
		asked        bool
		text         string // GenerateArguments of the schema found ("" none)
	}{
		{"chat json_schema", `{"response_format":{"type":"json_schema","json_schema":{"name":"r","schema":` + schema + `}}}`, true, `{"reasoning":"probe \"q\" \\ 中文","score":1}`},
		{"chat json_object", `{"response_format":{"type":"json_object"}}`, true, ""},
		{"chat text", `{"response_format":{"type":"text"}}`, false, ""},
		{"Responses text.format", `{"text":{"format":{"type":"json_schema","name":"r","schema":` + schema + `}}}`, true, `{"reasoning":"probe \"q\" \\ 中文","score":1}`},
		{"Messages output_format", `{"output_format":{"type":"json_schema","schema":` + schema + `}}`, true, `{"reasoning":"probe \"q\" \\ 中文","score":1}`},
		{"Gemini responseJsonSchema (Gemini CLI's classifier)", `{"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":` + schema + `}}`, true, `{"reasoning":"probe \"q\" \\ 中文","score":1}`},
		{"Gemini JSON without a schema", `{"generationConfig":{"responseMimeType":"application/json"}}`, true, ""},
		{"nothing asked", `{"messages":[]}`, false, ""},
		{"not JSON", `{`, false, ""},
	}
	for _, tt := range tests {
		got, asked := askedJSON([]byte(tt.body))
		text := ""
		if len(got) > 0 {
			var err error
			if text, err = GenerateArguments(got, false); err != nil {
				t.Fatal(err)
			}
		}
		if asked != tt.asked || text != tt.text {
			t.Errorf("%s: asked %v, text %s; want %v, %s", tt.reason, asked, text, tt.asked, tt.text)
		}
	}
}

// The excerpt of the agent's stderr starts at the first line that says
// error and ends with the last lines.
func TestStderrExcerpt(t *testing.T) {
	tests := []struct{ reason, stderr, want string }{
		{"nothing", "\n \n", ""},
		{"one line", "giving up\n", " (stderr: giving up)"},
		{"the last two lines when none says error", "a\nb\nc\n", " (stderr: b | c)"},
		{"opencode's schema error, then its JSON's last line", "Error: Type validation failed: expected string\n[\n  {\n]\n", " (stderr: Error: Type validation failed: expected string … { | ])"},
		{"the error line right before the last lines", "warn\nError: x\ny\nz\n", " (stderr: Error: x | y | z)"},
		{"the error line among the last lines", "a\nb\nfatal: z\n", " (stderr: b | fatal: z)"},
	}
	for _, tt := range tests {
		if got := stderrExcerpt([]byte(tt.stderr)); got != tt.want {
			t.Errorf("%s: %q\nwant %q", tt.reason, got, tt.want)
		}
	}
}
