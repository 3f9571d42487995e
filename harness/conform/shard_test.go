package conform

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseShardRefusesBadValues(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0/3", "bad shard 0/3: shards count from 1 to N: give 1/3 to 3/3"},
		{"4/3", "bad shard 4/3: shards count from 1 to N: give 1/3 to 3/3"},
		{"-1/3", "bad shard -1/3: shards count from 1 to N: give 1/3 to 3/3"},
		{"1/0", "bad shard 1/0: give at least 1 shard (N counts them)"},
		{"x", `bad shard "x": give I/N, e.g. 1/3 for the first of three shards`},
		{"1/", `bad shard "1/": give I/N, e.g. 1/3 for the first of three shards`},
		{"1/3/3", `bad shard "1/3/3": give I/N, e.g. 1/3 for the first of three shards`},
		{" 1/3", `bad shard " 1/3": give I/N, e.g. 1/3 for the first of three shards`},
	} {
		_, err := ParseShard(tt.in)
		if !errors.Is(err, ErrBadShard) || err.Error() != tt.want {
			t.Errorf("ParseShard(%q) = %v\nwant %s", tt.in, err, tt.want)
		}
	}
	if s, err := ParseShard("2/3"); err != nil || s != (Shard{2, 3}) || s.String() != "2/3" {
		t.Errorf("ParseShard(2/3) = %v, %v", s, err)
	}
}

func ids(cases []Case) []string {
	var out []string
	for _, c := range cases {
		out = append(out, c.ID)
	}
	return out
}

// Every case is in exactly one shard, by its position in the catalog after
// the probe; the probe is in every shard; sizes differ by one at most.
func TestShardCasesSplitTheCatalog(t *testing.T) {
	for _, catalog := range [][]Case{Cases(), MessagesCases(), RecordedCases(chatFormat)} {
		probe := catalog[0].ID
		for n := 1; n <= 5; n++ {
			seen := map[string]int{}
			sizes := []int{}
			for i := 1; i <= n; i++ {
				got, err := Shard{i, n}.Cases(catalog)
				if err != nil {
					t.Fatal(err)
				}
				if got[0].ID != probe {
					t.Errorf("shard %d/%d starts with %s, want the probe %s", i, n, got[0].ID, probe)
				}
				for _, c := range got[1:] {
					seen[c.ID]++
				}
				sizes = append(sizes, len(got)-1)
				if !slices.IsSortedFunc(got, func(a, b Case) int {
					return slices.IndexFunc(catalog, func(c Case) bool { return c.ID == a.ID }) - slices.IndexFunc(catalog, func(c Case) bool { return c.ID == b.ID })
				}) {
					t.Errorf("shard %d/%d is not in catalog order: %v", i, n, ids(got))
				}
			}
			if n > 1 && (len(seen) != len(catalog)-1 || seen[probe] != 0) {
				t.Errorf("%d shards cover %d cases besides the probe, want %d", n, len(seen), len(catalog)-1)
			}
			for id, k := range seen {
				if k != 1 {
					t.Errorf("%d shards: %s is in %d of them", n, id, k)
				}
			}
			if slices.Max(sizes)-slices.Min(sizes) > 1 {
				t.Errorf("%d shards of sizes %v", n, sizes)
			}
		}
	}
	got, _ := Shard{2, 3}.Cases(Cases())
	want := []string{"clean", "index_minus_1", "args_split_escapes", "name_every_piece", "finish_stop", "no_done",
		"name_in_pieces", "bad_args", "args_split_escapes+crlf", "finish_length", "fault_429", "fault_reset"}
	if diff := cmp.Diff(want, ids(got)); diff != "" {
		t.Errorf("shard 2/3 (-want +got):\n%s", diff)
	}
}

func TestShardCasesWithoutProbeAndTooManyShards(t *testing.T) {
	some, _ := SelectCases(Cases(), []string{"crlf", "truncated", "fault_429"})
	got, err := Shard{1, 2}.Cases(some)
	if err != nil || !slices.Equal(ids(got), []string{"crlf", "fault_429"}) {
		t.Errorf("shard 1/2 without the probe: %v, %v", ids(got), err)
	}
	_, err = Shard{1, 4}.Cases(some)
	if want := "bad shard 1/4: 3 cases besides the probe fill at most 3 shards"; !errors.Is(err, ErrBadShard) || err.Error() != want {
		t.Errorf("4 shards of 3 cases: %v\nwant %s", err, want)
	}
	clean, _ := SelectCases(Cases(), []string{"clean"})
	if _, err := (Shard{1, 2}).Cases(clean); err == nil || err.Error() != "bad shard 1/2: no case besides the probe to split: run them in one shard" {
		t.Errorf("2 shards of the probe alone: %v", err)
	}
	if got, err := (Shard{1, 1}).Cases(clean); err != nil || len(got) != 1 {
		t.Errorf("shard 1/1 of the probe alone: %v, %v", ids(got), err)
	}
}

func TestShardReportsTheProbeOnce(t *testing.T) {
	cases, _ := Shard{2, 3}.Cases(Cases())
	results := make([]Result, len(cases))
	for i, c := range cases {
		results[i].Case = c
	}
	if got := resultIDs(Shard{2, 3}.Reported(results)); got[0] != "index_minus_1" || len(got) != len(cases)-1 {
		t.Errorf("shard 2/3 reports %v", got)
	}
	cases, _ = Shard{1, 3}.Cases(Cases())
	results = results[:0]
	for _, c := range cases {
		results = append(results, Result{Case: c})
	}
	if got := resultIDs(Shard{1, 3}.Reported(results)); got[0] != "clean" || len(got) != len(cases) {
		t.Errorf("shard 1/3 reports %v", got)
	}
	if got := resultIDs(Shard{}.Reported(results)); len(got) != len(cases) {
		t.Errorf("no shard reports %v", got)
	}
}

func resultIDs(results []Result) []string {
	var out []string
	for _, r := range results {
		out = append(out, r.Case.ID)
	}
	return out
}
