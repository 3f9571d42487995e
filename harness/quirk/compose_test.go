package quirk

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// composedUnderTest are the compositions TestStreamIsApply and
// TestStreamHoldsOnlyWhatItSays check beside every quirk of All: the
// goldens' and some of every format, holding parts and cutting ones among
// them.
var composedUnderTest = []string{
	"ids_dropped+args_one_rune",
	"comments+no_done+crlf",
	"index_plus_1+name_every_piece+finish_stop",
	"args_one_rune+interleaved_calls+comments",
	"content_parts+several_choices",
	"bad_args+ids_dropped+crlf",
	"messages_ping_before_delta+messages_args_one_rune+messages_crlf",
	"messages_no_event_lines+messages_no_message_stop",
	"messages_index_from_1+messages_end_turn_with_calls",
	"messages_args_split_escapes+messages_cut_before_stop+comments",
	"responses_ids_rotate+responses_args_one_rune+responses_sequence_swapped",
	"responses_unknown_events+responses_truncated+crlf",
	"gemini_call_ids_dropped+gemini_finish_alone+gemini_lf",
	"comments+gemini_lf",
}

// composed looks up every composition of composedUnderTest.
func composed(t testing.TB) []Quirk {
	t.Helper()
	var out []Quirk
	for _, name := range composedUnderTest {
		q, err := Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		out = append(out, q)
	}
	return out
}

// appliedSkipping is what a composition's Stream sends when a part refuses
// the answer: every part applied in turn, a refusing one passing what it
// read as it came.
func appliedSkipping(q Quirk, body []byte, seed int64) []byte {
	for _, p := range q.parts {
		if out, err := p.Apply(body, seed); err == nil {
			body = out
		}
	}
	return body
}

// TestComposedGoldens: the exact bytes of three compositions of chat's
// clean stream and three of Messages', each the same for the same seed.
// A composition applies its parts left to right: comments+no_done+crlf has
// no [DONE] (nor the keepalives before it), CRLF on every line.
func TestComposedGoldens(t *testing.T) {
	for fixture, names := range map[string][]string{
		"clean.sse": {"ids_dropped+args_one_rune", "comments+no_done+crlf", "index_plus_1+name_every_piece+finish_stop"},
		"messages_clean.sse": {"messages_ping_before_delta+messages_args_one_rune+messages_crlf",
			"messages_no_event_lines+messages_no_message_stop", "messages_index_from_1+messages_end_turn_with_calls"},
	} {
		clean := readFixture(t, fixture)
		for _, name := range names {
			t.Run(name, func(t *testing.T) {
				q, err := Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				got, err := q.Apply(clean, 1)
				if err != nil {
					t.Fatal(err)
				}
				again, _ := q.Apply(clean, 1)
				if !bytes.Equal(got, again) {
					t.Error("two runs with the same seed gave different bytes")
				}
				checkGolden(t, name+".sse.golden", got)
			})
		}
	}
}

// TestComposedQuirk: a composition's name is its parts' joined, its
// format theirs, its flags and markers what its parts' say, its Holds what
// each part holds.
func TestComposedQuirk(t *testing.T) {
	q, err := Lookup("crlf+ids_dropped+args_one_rune")
	if err == nil {
		t.Fatalf("crlf first was composed: %+v", q.Name)
	}
	q, err = Lookup("ids_dropped+content_parts+several_choices+crlf")
	if err != nil {
		t.Fatal(err)
	}
	if q.Name != "ids_dropped+content_parts+several_choices+crlf" || q.API != "chat" || !q.Benign || !q.DropsIDs || q.Warns ||
		!slices.Equal(q.Markers, []string{"(another answer)", "decoy/**"}) || len(q.Parts()) != 4 {
		t.Errorf("got %s (%s) benign %v drops ids %v warns %v markers %q parts %d", q.Name, q.API, q.Benign, q.DropsIDs, q.Warns, q.Markers, len(q.Parts()))
	}
	if got, want := q.Holds(), "what its parts hold, in turn (ids_dropped: nothing; content_parts: nothing; several_choices: the answer's first chunk, then each chunk until the next; crlf: nothing)"; got != want {
		t.Errorf("Holds = %q, want %q", got, want)
	}
	free, err := Lookup("comments+crlf")
	if err != nil || free.API != "" || free.Holds() != "nothing" {
		t.Errorf("comments+crlf: API %q holds %q, %v", free.API, free.Holds(), err)
	}
	broken, err := Lookup("responses_ids_rotate+responses_truncated")
	if err != nil || broken.Benign || broken.API != "responses" {
		t.Errorf("responses_ids_rotate+responses_truncated: benign %v API %q, %v", broken.Benign, broken.API, err)
	}
	if q, ok := ByName("comments+crlf"); !ok || q.Name != "comments+crlf" {
		t.Errorf("ByName(comments+crlf) = %q, %v", q.Name, ok)
	}
	if _, ok := ByName("crlf+comments"); ok {
		t.Error("ByName(crlf+comments) found a composition that undoes crlf")
	}
}

// TestComposeRefusals: each composition that cannot compose is refused
// with one line naming both parts and why; an unknown part is named.
func TestComposeRefusals(t *testing.T) {
	for _, tt := range []struct {
		name, want string
		sentinel   error
	}{
		{"crlf+no_done+crlf", "cannot compose crlf with no_done: no_done writes the line ends again, undoing crlf (put crlf after it)", ErrCannotCompose},
		{"no_done+crlf+no_done", "cannot compose no_done with no_done: no_done comes twice", ErrCannotCompose},
		{"ids_dropped+id_every_piece", "cannot compose ids_dropped with id_every_piece: both edit call ids", ErrCannotCompose},
		{"crlf+gemini_lf", "cannot compose crlf with gemini_lf: both edit line ends", ErrCannotCompose},
		{"ids_dropped+no_index", "cannot compose ids_dropped with no_index: no_index needs the call ids that ids_dropped edits", ErrCannotCompose},
		{"no_index+ids_dropped", "cannot compose no_index with ids_dropped: no_index needs the call ids that ids_dropped edits", ErrCannotCompose},
		{"id_every_piece+args_one_rune", "cannot compose id_every_piece with args_one_rune: args_one_rune writes the ids on later pieces again, undoing id_every_piece (put id_every_piece after it)", ErrCannotCompose},
		{"comments+gemini_finish_alone", "cannot compose comments with gemini_finish_alone: gemini_finish_alone writes the comment lines again, undoing comments (put comments after it)", ErrCannotCompose},
		{"responses_truncated+responses_done_marker", "cannot compose responses_truncated with responses_done_marker: responses_done_marker edits the end marker, which responses_truncated has closed (put responses_done_marker before it)", ErrCannotCompose},
		{"messages_overloaded_midstream+messages_cut_before_stop", "cannot compose messages_overloaded_midstream with messages_cut_before_stop: both break the answer", ErrCannotCompose},
		{"ids_dropped+messages_crlf", "cannot compose ids_dropped with messages_crlf: ids_dropped edits chat streams, messages_crlf messages streams", ErrCannotCompose},
		{"comments+ids_dropped+gemini_lf", "cannot compose ids_dropped with gemini_lf: ids_dropped edits chat streams, gemini_lf gemini streams", ErrCannotCompose},
		{"ids_dropped+nope", `unknown quirk "nope"`, ErrUnknown},
		{"ids_dropped+", `unknown quirk "ids_dropped+": a part is empty`, ErrUnknown},
		{"nope", `unknown quirk "nope"`, ErrUnknown},
	} {
		q, err := Lookup(tt.name)
		if err == nil {
			t.Errorf("Lookup(%q) = %s, want the error %q", tt.name, q.Name, tt.want)
			continue
		}
		if err.Error() != tt.want || !errors.Is(err, tt.sentinel) {
			t.Errorf("Lookup(%q):\n got %v\nwant %s", tt.name, err, tt.want)
		}
	}
	if _, err := Compose(All()[0]); err == nil || err.Error() != "cannot compose: a composition needs two parts or more, got 1" {
		t.Errorf("Compose of one part: %v", err)
	}
}

// TestEveryQuirkSaysWhatItEdits: Compose's checks read what each quirk
// edits, so a quirk that says nothing would compose with anything.
func TestEveryQuirkSaysWhatItEdits(t *testing.T) {
	for _, q := range All() {
		if q.compose.edits == 0 {
			t.Errorf("%s says nothing of what it edits", q.Name)
		}
		if q.compose.rewrites&aLineEnds == 0 {
			t.Errorf("%s does not say it writes the line ends", q.Name)
		}
	}
}

// TestComposedStreamHoldsAtMostItsLimit: the parts of a composition under
// LimitHeld hold at most the bound between them, though comments sends
// args_split_escapes more bytes than it reads; an answer whose call never
// ends is cut with ErrHoldLimit naming the composition, and nothing more
// is sent.
func TestComposedStreamHoldsAtMostItsLimit(t *testing.T) {
	q, err := Lookup("comments+args_split_escapes+crlf")
	if err != nil {
		t.Fatal(err)
	}
	start := "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"\"}}]}}]}\n\n"
	// Every bound of a piece's width: some fall where a piece fits but
	// the keepalives comments adds to it do not.
	for limit := 4 << 10; limit < 4<<10+len(endlessPiece); limit++ {
		s := q.Stream(1)
		s.LimitHeld(limit)
		if _, err := s.Write([]byte(start)); err != nil {
			t.Fatal(err)
		}
		var cut error
		for range 2 * limit / len(endlessPiece) {
			out, err := s.Write([]byte(endlessPiece))
			if s.Held() > limit {
				t.Fatalf("limit %d: holds %d bytes", limit, s.Held())
			}
			if err != nil {
				cut = err
				if len(out) != 0 {
					t.Errorf("limit %d: the cutting Write sent %d bytes", limit, len(out))
				}
				break
			}
		}
		if !errors.Is(cut, ErrHoldLimit) || !strings.HasPrefix(cut.Error(), "quirk comments+args_split_escapes+crlf: the quirk would hold more") {
			t.Fatalf("limit %d: cut: %v", limit, cut)
		}
		if out, err := s.Write([]byte(endlessPiece)); out != nil || err != nil {
			t.Errorf("limit %d: after the cut: %q, %v", limit, out, err)
		}
		if out, err := s.Close(); out != nil || err != nil {
			t.Errorf("limit %d: Close after the cut: %q, %v", limit, out, err)
		}
	}
}
