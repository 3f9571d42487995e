package cassette

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
)

// interactionYAML is one interaction; body and reply are YAML values.
func interactionYAML(body, reply string, code string) string {
	return `    - request:
        body: ` + body + `
        url: http://gw.test/v1/chat/completions
        method: POST
      response:
        body: ` + reply + `
        status: 200 OK
        code: ` + code + `
`
}

// aliasBomb is a small file whose interactions all alias one large body.
func aliasBomb(bodyBytes, interactions int) string {
	var b strings.Builder
	b.WriteString("---\nversion: 1\ninteractions:\n")
	b.WriteString(interactionYAML(`'{}'`, "&big "+strings.Repeat("x", bodyBytes), "200"))
	for range interactions - 1 {
		b.WriteString(interactionYAML(`'{}'`, "*big", "200"))
	}
	return b.String()
}

func writeCassette(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadCassetteRefusals(t *testing.T) {
	one := "---\nversion: 1\ninteractions:\n" + interactionYAML(`'{}'`, `"data: [DONE]\n\n"`, "200")
	tests := []struct {
		reason string
		text   string
		want   string // after "cassette PATH: bad cassette: "
	}{
		{"a 1 MiB file aliasing one 1 MiB body 300 times (300 MiB expanded)", aliasBomb(1<<20, 300),
			"its interactions expand to more than the limit of 256 MiB (YAML aliases count each time they are used; 256 of 300 interactions counted): if the file is yours, raise the limit with AGENTVCR_MAX_CASSETTE_MB=N (MiB)"},
		{"format version 2 (go-vcr v4)", strings.Replace(one, "version: 1", "version: 2", 1),
			"format version 2, agentvcr replays version 1 only: it was written by go-vcr v3 or later, whose format go-vcr v2.1.0 cannot replay; re-record it with agentvcr run ... -record PATH"},
		{"no version", strings.Replace(one, "version: 1\n", "", 1),
			"format version 0, agentvcr replays version 1 only: re-record it with agentvcr run ... -record PATH"},
		{"an interaction with no response", "---\nversion: 1\ninteractions:\n" + interactionYAML(`'{}'`, `"x"`, "200") +
			"    - request:\n        body: '{}'\n        url: http://gw.test/v1/chat/completions\n        method: POST\n",
			"interaction 2 has no response (no status code): re-record the cassette, or delete the interaction"},
		{"an interaction with no request", "---\nversion: 1\ninteractions:\n    - response:\n        code: 200\n",
			"interaction 1 has no request (method and url): re-record the cassette, or delete the interaction"},
		{"a status code too large for an int", strings.Replace(one, "code: 200", "code: 99999999999999999999999", 1),
			"not a go-vcr v2 cassette: unmarshal errors: line 11: cannot unmarshal !!float `9999999...` into int (a number too large for its field, or not a whole number); fix that line or re-record the cassette (agentvcr run ... -record PATH)"},
		{"a status code out of range", strings.Replace(one, "code: 200", "code: 7", 1),
			"interaction 1 has a response with status code 7: re-record the cassette, or delete the interaction"},
		{"not YAML", "version: [1\n", "not a go-vcr v2 cassette: line 1: did not find expected ',' or ']'; fix that line or re-record the cassette (agentvcr run ... -record PATH)"},
	}
	for _, tt := range tests {
		path := writeCassette(t, tt.text)
		for _, open := range []struct {
			name string
			fn   func() error
		}{
			{"Load", func() error { _, err := Load(path); return err }},
			{"ReadRecording", func() error { _, err := ReadRecording(path); return err }},
			{"Open", func() error { _, err := Open(path, ModeReplay, nil, Options{}); return err }},
		} {
			err := open.fn()
			if !errors.Is(err, ErrBadCassette) {
				t.Errorf("%s: %s: err = %v, want ErrBadCassette", tt.reason, open.name, err)
				continue
			}
			if diff := cmp.Diff(fmt.Sprintf("cassette %s: bad cassette: %s", path, tt.want), err.Error()); diff != "" {
				t.Errorf("%s: %s: (-want +got):\n%s", tt.reason, open.name, diff)
			}
		}
	}
}

// The bound can be raised (and lowered) by the environment.
func TestLoadCassetteLimitFromEnv(t *testing.T) {
	path := writeCassette(t, aliasBomb(64<<10, 40)) // 2.5 MiB expanded
	t.Setenv(MaxBytesEnv, "2")
	if _, err := Load(path); !errors.Is(err, ErrBadCassette) || !strings.Contains(err.Error(), "limit of 2 MiB") {
		t.Errorf("limit 2 MiB: err = %v", err)
	}
	t.Setenv(MaxBytesEnv, "3")
	c, err := Load(path)
	if err != nil {
		t.Fatalf("limit 3 MiB: %v", err)
	}
	if len(c.Interactions) != 40 || len(c.Interactions[39].Response.Body) != 64<<10 {
		t.Errorf("loaded %d interactions", len(c.Interactions))
	}
	t.Setenv(MaxBytesEnv, "lots")
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), `AGENTVCR_MAX_CASSETTE_MB="lots": want a whole number of MiB, e.g. 1024`) {
		t.Errorf("bad value: err = %v", err)
	}
}

func TestLoadCassetteMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none"))
	if !errors.Is(err, vcr.ErrCassetteNotFound) {
		t.Errorf("err = %v, want vcr.ErrCassetteNotFound", err)
	}
}

// Every embedded cassette passes the checks.
func TestLoadCassetteEmbedded(t *testing.T) {
	paths, err := filepath.Glob("../../cassettes/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cassettes: %v", err)
	}
	quirks, _ := filepath.Glob("../../cassettes/quirks/*.yaml")
	for _, p := range append(paths, quirks...) {
		if _, err := Load(p); err != nil {
			t.Error(err)
		}
	}
}

// TestLoadCassetteLimitWithoutAliases: a cassette over the limit in its
// own bodies (the fast decoder's path, whose buffer is sized up to the
// limit and grows past it) is refused with the same message, and read
// whole under a higher limit.
func TestLoadCassetteLimitWithoutAliases(t *testing.T) {
	body := strings.Repeat("x", 1<<20)
	text := "---\nversion: 1\ninteractions:\n" + strings.Repeat(interactionYAML(`'{}'`, "|-\n            "+body, "200"), 3)
	if err := decodeVCR(strings.NewReader(text), int64(len(text)), new(vcr.Cassette), nil); err != nil {
		t.Fatalf("the fast path declines the test's cassette: %v", err)
	}
	path := writeCassette(t, text)
	t.Setenv(MaxBytesEnv, "2")
	_, err := Load(path)
	want := "its interactions expand to more than the limit of 2 MiB (YAML aliases count each time they are used; 2 of 3 interactions counted)"
	if !errors.Is(err, ErrBadCassette) || !strings.Contains(err.Error(), want) {
		t.Errorf("limit 2 MiB: err = %v", err)
	}
	t.Setenv(MaxBytesEnv, "4")
	c, err := Load(path)
	if err != nil {
		t.Fatalf("limit 4 MiB: %v", err)
	}
	for n, i := range c.Interactions {
		if i.Response.Body != body {
			t.Errorf("interaction %d: a body of %d bytes, want %d", n+1, len(i.Response.Body), len(body))
		}
	}
}
