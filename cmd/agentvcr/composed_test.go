package main

import (
	"testing"
	"time"

	conformpkg "github.com/agentvcr/agentvcr/harness/conform"
)

// TestConformComposedCases: conform -case takes compositions of quirk
// cases that are not in the catalog, their expectation derived from their
// parts; our own agent passes benign ones and a broken one alike.
func TestConformComposedCases(t *testing.T) {
	for _, tt := range []struct {
		api    string
		cases  []string
		expect map[string]conformpkg.Expect
	}{
		{"chat", []string{"ids_dropped+args_one_rune", "comments+no_done+crlf", "interleaved_calls+bad_args"},
			map[string]conformpkg.Expect{"ids_dropped+args_one_rune": conformpkg.ExpectSame, "comments+no_done+crlf": conformpkg.ExpectSame,
				"interleaved_calls+bad_args": conformpkg.ExpectBadArgs}},
		{"messages", []string{"messages_ping_before_delta+messages_args_one_rune+messages_crlf", "messages_args_split_escapes+messages_cut_before_stop+comments"},
			map[string]conformpkg.Expect{"messages_ping_before_delta+messages_args_one_rune+messages_crlf": conformpkg.ExpectSame,
				"messages_args_split_escapes+messages_cut_before_stop+comments": conformpkg.ExpectBroken}},
	} {
		t.Run(tt.api, func(t *testing.T) {
			format, err := conformpkg.FormatByName(tt.api)
			if err != nil {
				t.Fatal(err)
			}
			cases, err := conformpkg.SelectCases(format.Cases(), tt.cases)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				if c.Expect != tt.expect[c.ID] {
					t.Errorf("%s expects %d, want %d", c.ID, c.Expect, tt.expect[c.ID])
				}
			}
			args := ownAgent(t, "-api", tt.api)
			results, table := conformInProcess(t, conformpkg.Options{Format: format, Cases: cases, Timeout: 20 * time.Second}, args[2:])
			if len(results) != len(tt.cases) {
				t.Fatalf("%d results for %d cases:\n%s", len(results), len(tt.cases), table)
			}
			for _, r := range results {
				if r.Status != conformpkg.Success {
					t.Errorf("%s: %s: %s\n%s", r.Case.ID, r.Status, r.Details, table)
				}
			}
		})
	}
}
