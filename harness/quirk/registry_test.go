package quirk

import (
	"errors"
	"testing"

	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/gemini"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// TestEveryQuirkRefusesOtherFormats applies every quirk to a clean stream
// of every format: a quirk of one format refuses the others' with
// ErrNotApplicable (and leaves them unchanged by returning nothing); a
// format-free one edits them all.
func TestEveryQuirkRefusesOtherFormats(t *testing.T) {
	clean := map[string][]byte{
		chat.Format.Name:      readFixture(t, "clean.sse"),
		messages.Format.Name:  readFixture(t, "messages_clean.sse"),
		responses.Format.Name: readFixture(t, "responses/clean.sse"),
		gemini.Format.Name:    readFixture(t, "gemini_clean.sse"),
	}
	for _, api := range wire.All() {
		if body, ok := clean[api.Name]; !ok || wire.Detect(body) != api {
			t.Fatalf("no clean %s stream", api.Name)
		}
	}
	for _, q := range All() {
		for format, body := range clean {
			out, err := q.Apply(body, 1)
			switch {
			case q.API == "":
				if err != nil {
					t.Errorf("%s (any format) on a clean %s stream: %v", q.Name, format, err)
				}
			case q.API != format:
				if !errors.Is(err, ErrNotApplicable) || out != nil {
					t.Errorf("%s (%s) on a clean %s stream: %d bytes, %v; want ErrNotApplicable", q.Name, q.API, format, len(out), err)
				}
			}
		}
	}
}

// TestRegistryViews: ByName, OfAPI and Names read All, so every quirk of
// every format is found, and each format's list is All's, in order.
func TestRegistryViews(t *testing.T) {
	all := All()
	names := Names()
	if len(names) != len(all) {
		t.Fatalf("Names lists %d quirks, All has %d", len(names), len(all))
	}
	perAPI := map[string]int{}
	for i, q := range all {
		if names[i] != q.Name {
			t.Errorf("Names()[%d] = %q, want %q", i, names[i], q.Name)
		}
		if got, ok := ByName(q.Name); !ok || got.API != q.API {
			t.Errorf("ByName(%q) = %+v, %v", q.Name, got, ok)
		}
		perAPI[q.API]++
	}
	for _, api := range wire.All() {
		of := OfAPI(api.Name)
		if len(of) != perAPI[api.Name] || len(of) == 0 {
			t.Errorf("OfAPI(%s) has %d quirks, want %d", api.Name, len(of), perAPI[api.Name])
		}
		for _, q := range of {
			if q.API != api.Name {
				t.Errorf("OfAPI(%s) holds %s of %q", api.Name, q.Name, q.API)
			}
		}
	}
	if got := len(messagesQuirks()); perAPI[messages.Format.Name] != got {
		t.Errorf("All holds %d Messages quirks, want all %d", perAPI[messages.Format.Name], got)
	}
}
