package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// echoTool returns its raw arguments; its schema uses every keyword the
// validator knows.
func echoTool() Tool {
	return Tool{
		Name:        "echo",
		Description: "echo",
		Parameters: json.RawMessage(`{"type":"object","properties":{
			"text":{"type":"string","description":"d","minLength":2},
			"n":{"type":"integer","description":"d","minimum":1,"maximum":400},
			"x":{"type":"number","description":"d","minimum":0.5},
			"flag":{"type":"boolean","description":"d"},
			"list":{"type":"array","description":"d"}},
			"required":["text","n"],"additionalProperties":false}`),
		Run: func(_ context.Context, _ *Workspace, args json.RawMessage) (string, error) {
			return string(args), nil
		},
	}
}

func testRegistry(t *testing.T, lang Lang, extra ...Tool) *Registry {
	t.Helper()
	ws, _ := newWorkspace(t, nil)
	r := Default(ws, lang)
	for _, tool := range append([]Tool{echoTool()}, extra...) {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestExecuteUnknownTool(t *testing.T) {
	ws, dir := newWorkspace(t, nil)
	res := execute(t, ws, dir, ZH, "edit_file", `{"path":"src/calc.js","old":"a / b"}`)
	want := Result{Content: "没有名为 edit_file 的工具。可用的工具是：glob、grep、read_file", IsError: true, Meta: Meta{OriginalChars: 45}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if res.Chars() != 45 {
		t.Errorf("Chars() = %d, want 45", res.Chars())
	}
	res = execute(t, ws, dir, EN, "edit_file", `{}`)
	if diff := cmp.Diff("There is no tool named edit_file. Available tools: glob, grep, read_file", res.Content); diff != "" {
		t.Errorf("en (-want +got):\n%s", diff)
	}
	empty := NewRegistry(ws, ZH).Execute(context.Background(), Call{Name: "glob"})
	if diff := cmp.Diff(Result{Content: "没有名为 glob 的工具。现在没有任何可用的工具。", IsError: true, Meta: Meta{OriginalChars: 26}}, empty); diff != "" {
		t.Errorf("empty registry (-want +got):\n%s", diff)
	}
}

func TestExecuteArguments(t *testing.T) {
	long := `{"text":"` + strings.Repeat("长", 100)
	tests := []struct {
		reason string
		lang   Lang
		args   string
		want   Result
	}{
		{"valid arguments reach the tool unchanged", ZH, `{"text":"hi","n":3}`, Result{Content: `{"text":"hi","n":3}`}},
		{"empty arguments mean {}", ZH, "  ", Result{Content: "echo：参数不符合要求：缺少必填参数 text、n。", IsError: true}},
		{"not JSON: the parser message and the start of the raw text", ZH, `{"text":"hi",`,
			Result{Content: `echo：参数不是合法的 JSON（unexpected end of JSON input, byte 13），请重新发送一个 JSON 对象。收到的原文开头：{"text":"hi",`, IsError: true}},
		{"not JSON: only the first 80 runes are quoted back", EN, long,
			Result{Content: `echo: the arguments are not valid JSON (unexpected end of JSON input, byte 309); send one JSON object. The raw text starts with: {"text":"` + strings.Repeat("长", 71) + "…", IsError: true}},
		{"trailing garbage is not JSON", EN, `{"text":"hi","n":1} x`,
			Result{Content: `echo: the arguments are not valid JSON (invalid character 'x' after top-level value, byte 21); send one JSON object. The raw text starts with: {"text":"hi","n":1} x`, IsError: true}},
		{"an array is not an object", ZH, `[1]`, Result{Content: "echo：参数不符合要求：参数必须是一个 JSON 对象，收到的是数组。", IsError: true}},
		{"null is not an object", EN, `null`, Result{Content: "echo: invalid arguments: the arguments must be a JSON object, got null.", IsError: true}},
		{"every problem is listed, missing first, unknown last", ZH, `{"n":"200","zz":1,"aa":2}`,
			Result{Content: `echo：参数不符合要求：缺少必填参数 text；参数 n 应为整数，收到的是 "200"；不认识的参数 aa、zz（可用的参数：flag、list、n、text、x）。`, IsError: true}},
		{"en lists the same problems", EN, `{"n":"200","zz":1,"aa":2}`,
			Result{Content: `echo: invalid arguments: missing required parameter text; parameter n must be an integer, got "200"; unknown parameters aa, zz (allowed: flag, list, n, text, x).`, IsError: true}},
		{"integer bounds", EN, `{"text":"hi","n":0}`, Result{Content: "echo: invalid arguments: parameter n must be at least 1, got 0.", IsError: true}},
		{"integer upper bound", ZH, `{"text":"hi","n":401}`, Result{Content: "echo：参数不符合要求：参数 n 不能大于 400，收到的是 401。", IsError: true}},
		{"a fraction is not an integer", EN, `{"text":"hi","n":1.5}`, Result{Content: "echo: invalid arguments: parameter n must be an integer, got 1.5.", IsError: true}},
		{"an integer is a number; number bounds", EN, `{"text":"hi","n":1,"x":0}`, Result{Content: "echo: invalid arguments: parameter x must be at least 0.5, got 0.", IsError: true}},
		{"string length counts runes", ZH, `{"text":"字","n":1}`, Result{Content: `echo：参数不符合要求：参数 text 至少要有 2 个字符，收到的是 "字"。`, IsError: true}},
		{"boolean and array types", EN, `{"text":"hi","n":1,"flag":"yes","list":{}}`,
			Result{Content: `echo: invalid arguments: parameter flag must be a boolean, got "yes"; parameter list must be an array, got {}.`, IsError: true}},
		{"a long wrong value is shortened to 40 runes", EN, `{"text":["` + strings.Repeat("a", 50) + `"],"n":1}`,
			Result{Content: `echo: invalid arguments: parameter text must be a string, got ["` + strings.Repeat("a", 38) + `….`, IsError: true}},
	}
	for _, tt := range tests {
		r := testRegistry(t, tt.lang)
		got := r.Execute(context.Background(), Call{ID: "c", Name: "echo", Arguments: tt.args})
		tt.want.Meta = Meta{OriginalChars: utf8.RuneCountInString(tt.want.Content)}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestExecuteToolFailures(t *testing.T) {
	ws, _ := newWorkspace(t, nil)
	tool := func(name string, run func() (string, error)) Tool {
		return Tool{Name: name, Parameters: json.RawMessage(`{"type":"object"}`),
			Run: func(context.Context, *Workspace, json.RawMessage) (string, error) { return run() }}
	}
	var nilMap map[string]int
	tests := []struct {
		reason string
		lang   Lang
		tool   Tool
		want   Result
	}{
		{"a panic becomes its message, no stack", ZH, tool("boom", func() (string, error) { nilMap["x"] = 1; return "", nil }),
			Result{Content: "boom：工具内部出错：assignment to entry in nil map", IsError: true}},
		{"a panic with an error value", EN, tool("boom", func() (string, error) { panic(errors.New("bad state")) }),
			Result{Content: "boom: internal error in the tool: bad state", IsError: true}},
		{"an error is fed back with the tool's name", EN, tool("fail", func() (string, error) { return "ignored", errors.New("disk on fire") }),
			Result{Content: "fail: disk on fire", IsError: true}},
		{"the workspace path is scrubbed from error text", EN, tool("fail", func() (string, error) {
			return "", errors.New("open " + ws.Root() + "/src/x: denied; root " + ws.Root())
		}), Result{Content: "fail: open src/x: denied; root .", IsError: true}},
		{"cancellation is one word", ZH, tool("slow", func() (string, error) { return "", context.Canceled }),
			Result{Content: "slow：已取消", IsError: true}},
		{"invalid UTF-8 becomes U+FFFD", EN, tool("bytes", func() (string, error) { return "a\xffb", nil }),
			Result{Content: "a\uFFFDb"}},
		{"failures are truncated too", ZH, tool("fail", func() (string, error) { return "", errors.New(strings.Repeat("x", 19995)) }),
			Result{Content: "fail：" + strings.Repeat("x", 4795) + "\n…（中间已截断 12000 字符，全文共 20000 字符；需要中间部分请带 offset 再读一次）…\n" + strings.Repeat("x", 3200),
				IsError: true, Meta: Meta{Truncated: true, OriginalChars: 20000}}},
	}
	for _, tt := range tests {
		r := NewRegistry(ws, tt.lang)
		if err := r.Register(tt.tool); err != nil {
			t.Fatal(err)
		}
		got := r.Execute(context.Background(), Call{Name: tt.tool.Name, Arguments: "{}"})
		if !tt.want.Meta.Truncated {
			tt.want.Meta = Meta{OriginalChars: utf8.RuneCountInString(tt.want.Content)}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
		if tt.want.Meta.Truncated && utf8.RuneCountInString(got.Content) != 8054 {
			t.Errorf("%s: %d runes, want 8054", tt.reason, got.Chars())
		}
	}
}

func TestRegister(t *testing.T) {
	ok := echoTool()
	tests := []struct {
		reason string
		tool   func(Tool) Tool
		want   error
	}{
		{"a valid tool", func(t Tool) Tool { return t }, nil},
		{"a name that is not snake case", func(t Tool) Tool { t.Name = "readFile"; return t }, ErrInvalidTool},
		{"no Run", func(t Tool) Tool { t.Run = nil; return t }, ErrInvalidTool},
		{"a keyword the validator does not check", func(t Tool) Tool {
			t.Parameters = json.RawMessage(`{"type":"object","properties":{"p":{"type":"string","pattern":"^a"}}}`)
			return t
		}, ErrUnsupportedSchema},
		{"a type the validator does not know", func(t Tool) Tool {
			t.Parameters = json.RawMessage(`{"type":"object","properties":{"p":{"type":"strin"}}}`)
			return t
		}, ErrUnsupportedSchema},
		{"required names a missing property", func(t Tool) Tool {
			t.Parameters = json.RawMessage(`{"type":"object","properties":{},"required":["p"]}`)
			return t
		}, ErrUnsupportedSchema},
		{"not an object schema", func(t Tool) Tool { t.Parameters = json.RawMessage(`{"type":"array"}`); return t }, ErrUnsupportedSchema},
	}
	for _, tt := range tests {
		r := NewRegistry(nil, ZH)
		err := r.Register(tt.tool(ok))
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: Register() = %v, want %v", tt.reason, err, tt.want)
		}
	}
	r := NewRegistry(nil, ZH)
	if err := r.Register(ok); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(ok); !errors.Is(err, ErrDuplicateTool) {
		t.Errorf("second Register() = %v, want ErrDuplicateTool", err)
	}
}

func TestRegistryListing(t *testing.T) {
	r := testRegistry(t, EN)
	if diff := cmp.Diff([]string{"echo", "glob", "grep", "read_file"}, r.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	var names []string
	for _, d := range r.Definitions() {
		names = append(names, d.Type+":"+d.Function.Name)
	}
	if diff := cmp.Diff([]string{"function:echo", "function:glob", "function:grep", "function:read_file"}, names); diff != "" {
		t.Errorf("Definitions (-want +got):\n%s", diff)
	}
	for _, name := range []string{"glob", "grep", "read_file"} {
		if tool, ok := r.tool(name); !ok || !tool.ReadOnly {
			t.Errorf("%s: ReadOnly = %v, want true", name, tool.ReadOnly)
		}
	}
	if r.Lang() != EN || NewRegistry(nil, "fr").Lang() != ZH {
		t.Errorf("Lang() wrong")
	}
}

func TestParseLang(t *testing.T) {
	for in, want := range map[string]Lang{"": ZH, "zh": ZH, "en": EN} {
		if got, err := ParseLang(in); err != nil || got != want {
			t.Errorf("ParseLang(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseLang("fr"); !errors.Is(err, ErrUnknownLang) {
		t.Errorf("ParseLang(fr) error = %v, want ErrUnknownLang", err)
	}
}
