package conform

import "testing"

// TestComposedCaseRefusals: a composition whose parts do not compose, or
// whose part is no quirk case of the format, is refused in one line.
func TestComposedCaseRefusals(t *testing.T) {
	for _, tt := range []struct {
		cases []Case
		name  string
		want  string
	}{
		{Cases(), "crlf+no_done", `unknown case "crlf+no_done": cannot compose crlf with no_done: no_done writes the line ends again, undoing crlf (put crlf after it)`},
		{Cases(), "ids_dropped+nope", `unknown case "ids_dropped+nope": unknown quirk "nope"`},
		{MessagesCases(), "messages_crlf+ids_dropped", `unknown case "messages_crlf+ids_dropped": cannot compose messages_crlf with ids_dropped: messages_crlf edits messages streams, ids_dropped chat streams`},
		{MessagesCases(), "comments+messages_overloaded_midstream+messages_cut_before_stop", `unknown case "comments+messages_overloaded_midstream+messages_cut_before_stop": cannot compose messages_overloaded_midstream with messages_cut_before_stop: both break the answer`},
		{Cases(), "comments+messages_ping_before_delta", `unknown case "comments+messages_ping_before_delta": its part messages_ping_before_delta is no quirk case of this catalog`},
	} {
		if _, err := SelectCases(tt.cases, []string{tt.name}); err == nil || err.Error() != tt.want {
			t.Errorf("SelectCases(%s):\n got %v\nwant %s", tt.name, err, tt.want)
		}
	}
	got, err := SelectCases(MessagesCases(), []string{"messages_args_one_rune+messages_cut_before_stop", "messages_clean"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "messages_clean" || got[1].Expect != ExpectBroken || !got[1].ToolTurnOnly || got[1].Tier != TierQuirk {
		t.Errorf("got %+v", got)
	}
}
