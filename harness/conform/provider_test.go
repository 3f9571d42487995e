package conform

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// With -provider deepseek, Gemini's echo case that fails is reported apart
// and does not fail the run; DeepSeek's does; other cases are untouched.
func TestProviderReportsOtherEchoCasesApart(t *testing.T) {
	cases := Cases()
	byID := map[string]Case{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	results := []Result{
		{Case: byID["echo_signature"], Status: Failure, Details: "request 2: call 1 (glob) does not send back its thought_signature"},
		{Case: byID["echo_reasoning"], Status: Failure, Details: "request 2: no reasoning_content"},
		{Case: byID["no_index"], Status: Failure, Details: "calls lost"},
	}
	MarkProviders(results, []string{"deepseek"})
	unexpected, stale := Baseline{}.Judge(results)
	var got []string
	for _, r := range unexpected {
		got = append(got, r.Case.ID)
	}
	if d := cmp.Diff([]string{"echo_reasoning", "no_index"}, got); d != "" || len(stale) > 0 {
		t.Errorf("failing the run (-want +got):\n%s\nstale %v", d, stale)
	}
	if r := results[0]; r.OtherProvider != "gemini" || r.Details != "for gemini, which -provider leaves out: request 2: call 1 (glob) does not send back its thought_signature" {
		t.Errorf("echo_signature: %q %q", r.OtherProvider, r.Details)
	}
	all := []Result{{Case: byID["echo_signature"], Status: Failure}}
	if MarkProviders(all, []string{"all"}); all[0].OtherProvider != "" {
		t.Errorf("-provider all marks %s", all[0].Case.ID)
	}
	if err := CheckProviders([]string{"openai", "azure"}); !errors.Is(err, ErrUnknownProvider) || err.Error() != `unknown provider "azure": want all or one of openai, anthropic, gemini, deepseek` {
		t.Errorf("CheckProviders: %v", err)
	}
}
