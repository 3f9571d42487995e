package catalog

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/internal/cli"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// The checked-in files are what the generator writes, and nothing else
// lives in the folder.
func TestCatalogDoesNotDrift(t *testing.T) {
	want, err := conform.CatalogFiles(conform.AgentvcrTools())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range want {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%v: run go generate ./catalog", err)
			continue
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s differs from what the generator writes: run go generate ./catalog\n%s", name, cmp.Diff(string(data), string(got)))
		}
	}
	err = filepath.WalkDir(".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if _, ok := want[filepath.ToSlash(name)]; !ok && !slices.Contains([]string{"README.md", "doc.go", "catalog_test.go"}, name) {
			t.Errorf("%s is not generated: remove it", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// docs/cases.md is the catalog's page as the generator writes it.
func TestCatalogPageDoesNotDrift(t *testing.T) {
	got, err := os.ReadFile("../docs/cases.md")
	if err != nil {
		t.Fatalf("%v: run go generate ./catalog", err)
	}
	if want := conform.CatalogPage(); !bytes.Equal(got, want) {
		t.Errorf("docs/cases.md differs from what the generator writes: run go generate ./catalog\n%s", cmp.Diff(string(want), string(got)))
	}
}

// The folders of the catalog: each format's, the id of its clean turn and
// its quirk tier, in order.
var folders = []struct {
	dir, clean string
	cases      []conform.Case
}{
	{".", "clean", conform.Cases()},
	{"messages", "messages_clean", conform.MessagesCases()},
	{"responses", "responses_clean", conform.ResponsesCases()},
}

// Every benign case merges into the clean turn: same text, calls, names and
// arguments; ids too unless the stream dropped them. Broken cases are an
// error. In each folder.
func TestCatalogMergesAgreeWithTheCleanTurn(t *testing.T) {
	for _, f := range folders {
		var cases []conform.CatalogEntry
		readJSON(t, filepath.Join(f.dir, "cases.json"), &cases)
		var clean conform.Merged
		readJSON(t, filepath.Join(f.dir, f.clean+".json"), &clean)
		if len(clean.ToolCalls) != 2 {
			t.Fatalf("%s: the clean turn has %d calls, want 2", f.dir, len(clean.ToolCalls))
		}
		var ids []string
		for _, c := range cases {
			ids = append(ids, c.ID)
			var m conform.Merged
			readJSON(t, filepath.Join(f.dir, c.ID+".json"), &m)
			want := clean
			switch c.Expect {
			case "error":
				if m.Error == "" || m.ToolCalls != nil {
					t.Errorf("%s: %+v, want only an error", c.ID, m)
				}
				continue
			case "first_or_error":
				if m.Error == "" || m.ToolCalls != nil {
					t.Errorf("%s: %+v, want only an error", c.ID, m)
				}
				// the other right answer: the turn up to the first response's end
				m = firstResponse(t, filepath.Join(f.dir, c.ID+".sse"))
			case "bad_args":
				want.ToolCalls = slices.Clone(clean.ToolCalls)
				want.ToolCalls[0].Arguments = m.ToolCalls[0].Arguments
				if json.Valid([]byte(m.ToolCalls[0].Arguments)) {
					t.Errorf("%s: the first call's arguments are valid JSON", c.ID)
				}
			}
			if c.DropsIDs {
				want.ToolCalls = slices.Clone(want.ToolCalls)
				for i := range want.ToolCalls {
					want.ToolCalls[i].ID = m.ToolCalls[i].ID
				}
			}
			switch c.ID {
			case "finish_stop":
				want.FinishReason = "stop"
			case "messages_end_turn_with_calls":
				want.FinishReason = "end_turn"
			}
			if diff := cmp.Diff(want, m); diff != "" {
				t.Errorf("%s merges otherwise than the clean turn (-want +got):\n%s", c.ID, diff)
			}
		}
		var tier []string // every quirk-tier case of the format applies to the probe's turn
		for _, c := range f.cases {
			if c.Tier == conform.TierQuirk {
				tier = append(tier, c.ID)
			}
		}
		if diff := cmp.Diff(tier, ids); diff != "" {
			t.Errorf("%s/cases.json (-want +got):\n%s", f.dir, diff)
		}
	}
	want := []string{"clean", "index_plus_1", "index_minus_1", "interleaved_calls", "args_one_rune", "args_split_escapes",
		"ids_dropped", "id_every_piece", "name_every_piece", "no_index", "all_index_0", "finish_stop", "crlf",
		"comments", "no_done", "content_parts", "several_choices", "name_in_pieces", "args_cumulative", "args_repeated_at_end",
		"bad_args", "comments+no_done", "comments+args_one_rune", "args_split_escapes+crlf", "midstream_error", "truncated", "finish_length"}
	var chat []conform.CatalogEntry
	readJSON(t, "cases.json", &chat)
	var ids []string
	for _, c := range chat {
		ids = append(ids, c.ID)
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("cases.json (-want +got):\n%s", diff)
	}
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Clean(name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// Each <id>.json is what `agentvcr merge <id>.sse` prints, read as JSON;
// merge tells the format from the stream.
func TestCatalogIsWhatMergePrints(t *testing.T) {
	for _, f := range folders {
		var cases []conform.CatalogEntry
		readJSON(t, filepath.Join(f.dir, "cases.json"), &cases)
		for _, c := range cases {
			code, stdout, _ := cli.Capture(cli.Env{Dir: f.dir}, "merge", c.ID+".sse")
			var got, want conform.Merged
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("%s: merge printed %q: %v", c.ID, stdout, err)
			}
			readJSON(t, filepath.Join(f.dir, c.ID+".json"), &want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: merge (-file +printed):\n%s", c.ID, diff)
			}
			if wantCode := map[bool]int{true: 1, false: 0}[c.Expect == "error" || c.Expect == "first_or_error"]; code != wantCode {
				t.Errorf("%s: merge exit %d, want %d", c.ID, code, wantCode)
			}
		}
	}
}

// firstResponse merges a Responses stream up to the end of its first
// response.completed event, as a parser that stops there does.
func firstResponse(t *testing.T, name string) conform.Merged {
	t.Helper()
	body, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(body, []byte(`"type":"response.completed"`))
	end := bytes.Index(body[max(i, 0):], []byte("\n\n"))
	if i < 0 || end < 0 {
		t.Fatalf("%s: no response.completed event", name)
	}
	turn, err := responses.Format.Merge(bytes.NewReader(body[:i+end+2]))
	if err != nil {
		t.Fatalf("%s up to its first response.completed: %v", name, err)
	}
	m := conform.Merged{Text: turn.Text, FinishReason: turn.FinishReason, ToolTurn: turn.ToolTurn}
	for _, tc := range turn.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, conform.Call{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return m
}
