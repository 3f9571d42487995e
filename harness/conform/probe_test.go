package conform

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadOnlyName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"read_file", true}, {"readFile", true}, {"ReadFile", true}, {"view", true}, {"file-viewer", false},
		{"cat", true}, {"catalog_update", false}, {"list_dir", true}, {"ls", true}, {"glob", true},
		{"find_files", true}, {"grep", true}, {"web.search", true}, {"search2", true},
		{"write_file", false}, {"run_shell", false}, {"edit", false}, {"lsp_rename", false}, {"", false},
	}
	for _, tt := range tests {
		if got := readOnlyName(tt.name); got != tt.want {
			t.Errorf("readOnlyName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestGenerateArguments(t *testing.T) {
	tests := []struct {
		reason  string
		schema  string
		escaped bool
		want    string
	}{
		{"required members only, in the order listed", `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"},"c":{"type":"boolean"}},"required":["c","b"]}`, false,
			`{"c":true,"b":"probe \"q\" \\ 中文"}`},
		{"the second call escapes CJK as \\u", `{"type":"object","properties":{"p":{"type":"string"}},"required":["p"]}`, true,
			`{"p":"probe \"r\" \\ \u6570\u636e"}`},
		{"enum, const, bounds", `{"type":"object","properties":{"e":{"enum":["x","y"]},"k":{"const":7},"n":{"type":"integer","minimum":5},"m":{"type":"number","maximum":0.5}},"required":["e","k","n","m"]}`, false,
			`{"e":"x","k":7,"n":5,"m":0.5}`},
		{"arrays, nested objects, nullable types, anyOf", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"o":{"type":"object","properties":{"x":{"type":["null","integer"]}},"required":["x"]},"u":{"anyOf":[{"type":"boolean"},{"type":"string"}]}},"required":["a","o","u"]}`, false,
			`{"a":["probe \"q\" \\ 中文"],"o":{"x":1},"u":true}`},
		{"no schema, no required members", ``, false, `{}`},
	}
	for _, tt := range tests {
		got, err := GenerateArguments(json.RawMessage(tt.schema), tt.escaped)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.reason, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("%s: not JSON: %s", tt.reason, got)
		}
	}
}

func TestProbeCalls(t *testing.T) {
	str := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	offered := []Tool{{Name: "write_file", Schema: str}, {Name: "read_file", Schema: str}, {Name: "bash", Schema: str}, {Name: "list_dir", Schema: str}, {Name: "grep", Schema: str}}
	tests := []struct {
		reason string
		tools  []Tool
		specs  []CallSpec
		want   []Call
		err    error
	}{
		{"the first two read-only tools", offered, nil,
			[]Call{{Name: "read_file", Arguments: `{"path":"probe \"q\" \\ 中文"}`}, {Name: "list_dir", Arguments: `{"path":"probe \"r\" \\ \u6570\u636e"}`}}, nil},
		{"one read-only tool is called twice", offered[:3], nil,
			[]Call{{Name: "read_file", Arguments: `{"path":"probe \"q\" \\ 中文"}`}, {Name: "read_file", Arguments: `{"path":"probe \"r\" \\ \u6570\u636e"}`}}, nil},
		{"-call names the tools and may give arguments", offered, []CallSpec{{Name: "bash", Args: `{"cmd":"ls"}`}, {Name: "grep"}},
			[]Call{{Name: "bash", Arguments: `{"cmd":"ls"}`}, {Name: "grep", Arguments: `{"path":"probe \"r\" \\ \u6570\u636e"}`}}, nil},
		{"no read-only tool", offered[:1], nil, nil, ErrNoReadOnlyTool},
		{"no tools at all", nil, nil, nil, ErrNoReadOnlyTool},
		{"-call of a tool not offered", offered, []CallSpec{{Name: "view"}}, nil, ErrUnknownCall},
	}
	for _, tt := range tests {
		got, err := ProbeCalls(tt.tools, tt.specs, "")
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: err = %v, want %v", tt.reason, err, tt.err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestParseCallSpec(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want CallSpec
		err  string
	}{
		{"read_file", CallSpec{Name: "read_file"}, ""},
		{`read_file={"path":"a=b"}`, CallSpec{Name: "read_file", Args: `{"path":"a=b"}`}, ""},
		{"=x", CallSpec{}, `-call "=x": want NAME or NAME=ARGS_JSON`},
		{"read_file=[1]", CallSpec{}, "-call read_file: the arguments are not a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
	} {
		got, err := ParseCallSpec(tt.in)
		if (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) || got != tt.want {
			t.Errorf("ParseCallSpec(%q) = %+v, %v; want %+v, %s", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestActName(t *testing.T) {
	for name, want := range map[string]bool{
		"google_web_search": true, "ListAgents": true, "list_agents": true, "ToolSearch": true, "tool_search": true,
		"WebFetch": true, "run_shell_command": true, "write_file": true,
		"Read": false, "read_file": false, "grep_search": false, "list_directory": false, "Glob": false, "find_files": false,
	} {
		if got := actName(name); got != want {
			t.Errorf("actName(%q) = %v, want %v", name, got, want)
		}
	}
}

// The tools real agents offer (measured on Claude Code 2.1.332,
// Qwen Code 0.24.4 and Gemini CLI 0.61.0, schemas cut to what picking
// reads): the probe picks two tools that read the folder, gives path
// parameters paths that exist in it and puts the probe strings in
// patterns only.
func TestProbeCallsOnRealAgentsTools(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".hidden", "a.go", "README.md", "z.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	schema := func(required string, props string) json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":` + props + `,"required":[` + required + `]}`)
	}
	absFile := `{"file_path":{"type":"string","description":"The absolute path to the file to read"}}`
	pattern := `{"pattern":{"type":"string"},"path":{"type":"string"}}`
	tests := []struct {
		agent string
		tools []Tool
		want  []Call
	}{
		{"Claude Code", []Tool{
			{Name: "Agent", Schema: schema(`"prompt"`, `{"prompt":{"type":"string"}}`)},
			{Name: "Bash", Schema: schema(`"command"`, `{"command":{"type":"string"}}`)},
			{Name: "Glob", Schema: schema(`"pattern"`, pattern)},
			{Name: "Grep", Schema: schema(`"pattern"`, pattern)},
			{Name: "ListAgents", Schema: json.RawMessage(`{"type":"object","properties":{}}`)},
			{Name: "Read", Schema: schema(`"file_path"`, absFile)},
			{Name: "ToolSearch", Schema: schema(`"query"`, `{"query":{"type":"string"}}`)},
		}, []Call{
			{Name: "Glob", Arguments: `{"pattern":"probe \"q\" \\ 中文"}`},
			{Name: "Grep", Arguments: `{"pattern":"probe \"r\" \\ \u6570\u636e"}`},
		}},
		{"a reader of absolute paths first", []Tool{
			{Name: "Read", Schema: schema(`"file_path"`, absFile)},
			{Name: "ListAgents", Schema: json.RawMessage(`{"type":"object","properties":{}}`)},
			{Name: "Grep", Schema: schema(`"pattern"`, pattern)},
		}, []Call{
			{Name: "Read", Arguments: `{"file_path":"` + filepath.Join(dir, "README.md") + `"}`},
			{Name: "Grep", Arguments: `{"pattern":"probe \"r\" \\ \u6570\u636e"}`},
		}},
		{"Gemini CLI", []Tool{
			{Name: "update_topic", Schema: schema(`"strategic_intent"`, `{"strategic_intent":{"type":"STRING"}}`)},
			{Name: "list_directory", Schema: schema(`"dir_path"`, `{"dir_path":{"type":"STRING","description":"The path to the directory to list"}}`)},
			{Name: "read_file", Schema: schema(`"file_path"`, `{"file_path":{"type":"STRING","description":"The path to the file to read."}}`)},
			{Name: "google_web_search", Schema: schema(`"query"`, `{"query":{"type":"STRING"}}`)},
			{Name: "grep_search", Schema: schema(`"pattern"`, `{"pattern":{"type":"STRING"}}`)},
		}, []Call{
			{Name: "list_directory", Arguments: `{"dir_path":"."}`},
			{Name: "grep_search", Arguments: `{"pattern":"probe \"r\" \\ \u6570\u636e"}`},
		}},
		{"Qwen Code (no type, no parameters)", []Tool{
			{Name: "get_goal"},
			{Name: "glob", Schema: json.RawMessage(`{"properties":{"pattern":{"type":"string"}},"required":["pattern"]}`)},
			{Name: "list_agents"},
			{Name: "tool_search", Schema: schema(`"query"`, `{"query":{"type":"string"}}`)},
		}, []Call{
			{Name: "glob", Arguments: `{"pattern":"probe \"q\" \\ 中文"}`},
			{Name: "glob", Arguments: `{"pattern":"probe \"r\" \\ \u6570\u636e"}`},
		}},
		{"only tools without parameters read: a probe member each", []Tool{
			{Name: "list_agents"}, {Name: "list_files"}, {Name: "view_status"},
		}, []Call{{Name: "list_files", Arguments: `{"probe":"probe \"q\" \\ 中文"}`}, {Name: "view_status", Arguments: `{"probe":"probe \"r\" \\ \u6570\u636e"}`}}},
		{"tools that forbid other members and declare none: {}", []Tool{
			{Name: "list_files", Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
			{Name: "view_status", Schema: json.RawMessage(`{"type":"object","additionalProperties":false}`)},
		}, []Call{{Name: "list_files", Arguments: `{}`}, {Name: "view_status", Arguments: `{}`}}},
		{"optional members only: a path that exists first, then a pattern, then a string", []Tool{
			{Name: "read_file", Schema: json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"},"encoding":{"type":"string"},"path":{"type":"string"}}}`)},
			{Name: "search_files", Schema: json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"},"query":{"type":"string"},"note":{"type":"string"}},"additionalProperties":false}`)},
		}, []Call{{Name: "read_file", Arguments: `{"path":"README.md"}`}, {Name: "search_files", Arguments: `{"query":"probe \"r\" \\ \u6570\u636e"}`}}},
		{"optional members that are no string: the first by name", []Tool{
			{Name: "list_files", Schema: json.RawMessage(`{"type":"object","properties":{"recursive":{"type":"boolean"},"depth":{"type":"integer","minimum":2}}}`)},
		}, []Call{{Name: "list_files", Arguments: `{"depth":2}`}, {Name: "list_files", Arguments: `{"depth":2}`}}},
	}
	for _, tt := range tests {
		got, err := ProbeCalls(tt.tools, nil, dir)
		if err != nil {
			t.Errorf("%s: %v", tt.agent, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.agent, diff)
		}
	}
	if got := folderPaths(t.TempDir()); got.file != "" || got.dir != "." {
		t.Errorf("an empty folder: %+v, want no file and the folder itself", got)
	}
}

// A path nested in an object or an array gets a file of the folder, as a
// top-level one does: files[].path, paths[], an object's file_path.
func TestProbeCallsGiveNestedPathsRealFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := []Tool{
		{Name: "read_files", Schema: json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path","limit"]}}},"required":["files"]}`)},
		{Name: "read_many", Schema: json.RawMessage(`{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"}},"request":{"type":"object","properties":{"file_path":{"type":"string","description":"an absolute path"},"query":{"type":"string"}},"required":["file_path","query"]}},"required":["paths","request"]}`)},
	}
	got, err := ProbeCalls(tools, []CallSpec{{Name: "read_files"}, {Name: "read_many"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Call{
		{Name: "read_files", Arguments: `{"files":[{"path":"README.md","limit":1}]}`},
		{Name: "read_many", Arguments: `{"paths":["README.md"],"request":{"file_path":"` + filepath.Join(dir, "README.md") + `","query":"probe \"r\" \\ \u6570\u636e"}}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
