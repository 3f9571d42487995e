package serve

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

// TestServedFromPath: a cassette served from its file (ServedCassette.Path)
// answers every recorded turn on the plain, named and quirk routes as the
// same cassette's bytes do, and its plain routes serve one decoded copy of
// each body.
func TestServedFromPath(t *testing.T) {
	path := filepath.Join("..", "..", "cassettes", "parallel.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := cassette.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	byData := &CassetteRouter{Cassettes: []ServedCassette{{Name: "parallel", Data: data}}, Match: MatchTurn}
	byPath := &CassetteRouter{Cassettes: []ServedCassette{{Name: "parallel", Path: path}}, Match: MatchTurn}
	first := map[string][]byte{} // route -> its reply to the first turn
	for _, name := range []string{"", "parallel", "parallel~ids_dropped", "parallel~index_plus_1", "~interleaved_calls"} {
		want, err := byData.Route(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := byPath.Route(name)
		if err != nil {
			t.Fatal(err)
		}
		for n, i := range recorded.Interactions {
			model, turn := formatOf(i.Request.URL).TurnOf(urlPath(i.Request.URL), []byte(i.Request.Body))
			req := Request{Case: name, Method: i.Request.Method, Path: urlPath(i.Request.URL), Body: []byte(i.Request.Body), Model: model, Turn: turn}
			w, werr := want.Answer(req)
			g, gerr := got.Answer(req)
			if werr != nil || gerr != nil {
				t.Fatalf("route %q, interaction %d: %v; from the file: %v", name, n+1, werr, gerr)
			}
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("route %q, interaction %d: from the file (-bytes +file):\n%s", name, n+1, diff)
			}
			if n == 0 {
				first[name] = g.Body
			}
		}
	}
	if &first[""][0] != &first["parallel"][0] {
		t.Error(`routes "" and "parallel" hold two copies of the first reply`)
	}
	if &first["parallel"][0] == &first["parallel~index_plus_1"][0] {
		t.Error("a quirk route serves the plain reply")
	}
	a, err := byPath.Decoded("parallel")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := byPath.Decoded("parallel"); a != b {
		t.Error("Decoded decodes the cassette again")
	}
	if _, err := byPath.Decoded("nope"); err == nil {
		t.Error("Decoded of an unknown name: no error")
	}
}

// TestServedFromPathReadOnce: under -quirk (CassetteRouter.Quirk) the
// plain route is a quirk route too; the file is still read once, and a
// route built after it is gone is built from what was read.
func TestServedFromPathReadOnce(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "cassettes", "parallel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "parallel.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	router := &CassetteRouter{Cassettes: []ServedCassette{{Name: "parallel", Path: path}}, Quirk: "index_plus_1"}
	if _, err := router.Route(""); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"parallel", "parallel~interleaved_calls"} {
		if _, err := router.Route(name); err != nil {
			t.Errorf("route %q after the file is gone: %v", name, err)
		}
	}
}
