package conform

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVacuousProbes: tools that declare no parameters still get arguments
// (a probe member), so an agent that drops argument pieces fails the
// argument quirks instead of passing them by accident; tools that allow no
// member get "{}", and the argument quirks are SKIPPED as vacuous, with
// the reason and the way to run them.
func TestVacuousProbes(t *testing.T) {
	t.Parallel()
	ids := []string{"clean", "args_one_rune", "args_cumulative", "crlf"}
	tests := []struct {
		reason string
		mode   string
		want   []string
	}{
		{"no parameters, extra members allowed: the probe sends one, and an agent that drops every argument fails",
			vacuousDropsArgs, []string{
				"clean FAILURE request 2: the assistant message does not re-send the merged calls; conform stopped the agent there",
				"args_one_rune FAILURE clean fails too (read it first), so this may follow from it: request 2: the assistant message does not re-send the merged calls; conform stopped the agent there",
				"crlf FAILURE clean fails too (read it first), so this may follow from it: request 2: the assistant message does not re-send the merged calls; conform stopped the agent there",
				"args_cumulative FAILURE clean fails too (read it first), so this may follow from it: request 2: the assistant message does not re-send the merged calls; conform stopped the agent there",
			}},
		{"no parameters and no others allowed: the argument quirks are vacuous",
			vacuousStrict, []string{
				"clean SUCCESS 2 calls re-sent and answered; exit 0",
				"args_one_rune SKIPPED vacuous: the probe's calls (list_files, read_status) carry no arguments, as their schemas allow no member, so args_one_rune has nothing to cut into pieces and would pass by accident; run it with -call NAME=ARGS_JSON naming a tool that takes arguments",
				"crlf SUCCESS 2 calls re-sent and answered; exit 0",
				"args_cumulative SKIPPED vacuous: the probe's calls (list_files, read_status) carry no arguments, as their schemas allow no member, so args_cumulative has nothing to cut into pieces and would pass by accident; run it with -call NAME=ARGS_JSON naming a tool that takes arguments",
			}},
	}
	for _, tt := range tests {
		for _, real := range []bool{false, true} {
			name := tt.mode + "/in-process"
			if real {
				name = tt.mode + "/process"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				if diff := cmp.Diff(tt.want, runCases(t, tt.mode, real, ids...)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
				}
			})
		}
	}
}

// TestVacuousCounted: the totals line and the JSON report say how many
// cases were vacuous, and report merge keeps it.
func TestVacuousCounted(t *testing.T) {
	cases, err := SelectCases(Cases(), []string{"clean", "args_one_rune", "args_cumulative"})
	if err != nil {
		t.Fatal(err)
	}
	results := []Result{
		{Case: cases[0], Status: Success},
		{Case: cases[1], Status: Skipped, Vacuous: true, Details: "vacuous: …"},
		{Case: cases[2], Status: Skipped, Vacuous: true, Details: "vacuous: …"},
	}
	want := "3 cases: 1 SUCCESS, 0 FAILURE, 0 WARNING, 2 SKIPPED (2 vacuous: the probe's calls carry no arguments)"
	if got := Totals(results); got != want {
		t.Errorf("Totals:\n got %s\nwant %s", got, want)
	}
	var b strings.Builder
	if err := WriteRunJSON(&b, RunInfo{API: "chat", Agent: "a"}, results); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"vacuous": true`); n != 2 {
		t.Errorf(`%d checks say "vacuous": true, want 2:\n%s`, n, b.String())
	}
	report, err := ReadReport("r.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	_, merged, err := MergeReports([]Report{report})
	if err != nil {
		t.Fatal(err)
	}
	if got := Totals(merged); got != want {
		t.Errorf("Totals after report merge:\n got %s\nwant %s", got, want)
	}
}
