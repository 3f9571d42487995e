package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/internal/cli"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/gemini"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// gatewayRoot is the gateway address written into the base cassettes; each
// format's client is given its own base URL there (wire.BaseURL: the root
// plus /v1 for OpenAI's formats, the root for Anthropic's).
const gatewayRoot = "http://scripted-gateway.agentvcr.test"

// key is the API key the generator records with. The gateway requires it,
// so the recording path handles a real Authorization header; redaction and
// the secret scan keep it out of the files.
const key = "sk-test-agentvcr-generate-0123456789"

// derivedFrom are the base cassettes whose quirk variants are written to
// quirks/: the demo conversation and the turn with two parallel calls.
var derivedFrom = []string{demo.ScriptDemo, demo.ScriptParallel}

// A derivation is which quirk variants of a format's base cassettes are
// written: those of quirks applied to bases.
type derivation struct {
	bases  []string
	quirks []quirk.Quirk
}

// derivationOf is a format's derivation: derivedFrom under every quirk
// (each refuses another format's streams), but for Anthropic Messages, whose
// variants are the demo's under its own quirks alone, and Gemini, the routes
// of another format (Bedrock's, Vertex AI's) and the framed formats
// (Converse), which have none (their quirks are proven on fixtures,
// through the chaos proxy and by conform).
func derivationOf(f *agent.Format) derivation {
	if f.Carries != nil || f.Framing != nil {
		return derivation{}
	}
	switch f {
	case messages.Format:
		return derivation{[]string{demo.ScriptDemo}, quirk.OfAPI(f.Name)}
	case gemini.Format:
		return derivation{}
	}
	return derivation{derivedFrom, quirk.All()}
}

// formatDir is where a format's cassettes go: dir for the default format,
// dir/<format name>/ for another.
func formatDir(dir string, f *agent.Format) string {
	if f == wire.Default() {
		return dir
	}
	return filepath.Join(dir, f.Name)
}

// generate writes every cassette into dir: <script>.yaml and
// <script>.en.yaml for each base script, and quirks/<base>.<quirk>.yaml for
// each benign quirk that applies. Files it did not write are removed from
// quirks/, so dir holds exactly the generator's output.
func generate(dir string) error {
	for _, lang := range []tools.Lang{tools.ZH, tools.EN} {
		for _, f := range wire.All() {
			if err := recordBase(dir, lang, f); err != nil {
				return err
			}
		}
	}
	for _, f := range wire.All() {
		d := derivationOf(f)
		if len(d.bases) == 0 {
			continue
		}
		if err := deriveQuirks(formatDir(dir, f), "quirks", d.bases, d.quirks); err != nil {
			return err
		}
	}
	return nil
}

// recordBase records each base script of a locale from the scripted gateway
// in one wire format, into formatDir.
func recordBase(dir string, lang tools.Lang, api *agent.Format) error {
	base, out := wire.BaseURL(api, gatewayRoot), formatDir(dir, api)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	gw := gateway.New(key, demo.Scripts(lang)...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: gw}
	go srv.Serve(ln)
	defer srv.Close()
	transport := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", ln.Addr().String())
	}}
	defer transport.CloseIdleConnections()

	for _, s := range demo.Scripts(lang) {
		sandbox, err := os.MkdirTemp("", "gencassettes-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(sandbox)
		if err := demo.WriteSandbox(sandbox); err != nil {
			return err
		}
		env := cli.Env{Dir: dir, Getenv: cli.Vars(map[string]string{api.KeyEnv: key}), Transport: transport}
		args := []string{"run", "-api", api.Name, "-C", sandbox, "-base-url", base, "-model", s.Name,
			"-lang", string(lang), "-record", filepath.Join(out, cassette.File(s.Name, lang)), demo.Prompt(lang)}
		if code, _, stderr := cli.Capture(env, args...); code != 0 {
			return fmt.Errorf("recording %s (%s, %s): exit %d: %s", s.Name, lang, api.Name, code, strings.TrimSpace(stderr))
		}
	}
	if refused := gw.Refused(); len(refused) > 0 {
		return fmt.Errorf("the scripted gateway refused requests: %w", errors.Join(refused...))
	}
	return nil
}

// deriveQuirks writes dir/sub/<base>.<quirk>.yaml for every benign quirk
// of quirks that applies to a bases cassette in dir, and removes stale
// files there. The chat cassettes derive from demo and parallel; the
// Messages ones (messages/quirks/) from demo.
func deriveQuirks(dir, sub string, bases []string, quirks []quirk.Quirk) error {
	qdir := filepath.Join(dir, sub)
	if err := os.MkdirAll(qdir, 0o755); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, base := range bases {
		in, err := os.ReadFile(filepath.Join(dir, cassette.File(base, tools.ZH)))
		if err != nil {
			return err
		}
		read, err := quirk.ReadCassette(in) // once, for every quirk
		if err != nil {
			return fmt.Errorf("%s: %w", base, err)
		}
		for _, q := range quirks {
			if !q.Benign {
				continue
			}
			out, err := read.Apply(q, 1)
			if errors.Is(err, quirk.ErrNotApplicable) {
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", base, err)
			}
			name := base + "." + strings.TrimPrefix(q.Name, "responses_") + ".yaml"
			want[name] = true
			if err := os.WriteFile(filepath.Join(qdir, name), out, 0o644); err != nil {
				return err
			}
		}
	}
	entries, err := os.ReadDir(qdir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !want[e.Name()] {
			if err := os.Remove(filepath.Join(qdir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
