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
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/gemini"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// BaseURL is the gateway address written into the base cassettes.
const BaseURL = "http://scripted-gateway.agentvcr.test/v1"

// messagesBaseURL is the same gateway as an Anthropic Messages or a Gemini
// client is given it: the root, to which the client adds /v1/messages or
// /v1beta/models/....
const messagesBaseURL = "http://scripted-gateway.agentvcr.test"

// key is the API key the generator records with. The gateway requires it,
// so the recording path handles a real Authorization header; redaction and
// the secret scan keep it out of the files.
const key = "sk-test-agentvcr-generate-0123456789"

// derivedFrom are the base cassettes whose quirk variants are written to
// quirks/: the demo conversation and the turn with two parallel calls.
var derivedFrom = []string{demo.ScriptDemo, demo.ScriptParallel}

// generate writes every cassette into dir: <script>.yaml and
// <script>.en.yaml for each base script, and quirks/<base>.<quirk>.yaml for
// each benign quirk that applies. Files it did not write are removed from
// quirks/, so dir holds exactly the generator's output.
func generate(dir string) error {
	for _, lang := range []tools.Lang{tools.ZH, tools.EN} {
		if err := recordBase(dir, lang, chat.Format); err != nil {
			return err
		}
		if err := recordBase(dir, lang, messages.Format); err != nil {
			return err
		}
		if err := recordBase(dir, lang, responses.Format); err != nil {
			return err
		}
		if err := recordBase(dir, lang, gemini.Format); err != nil {
			return err
		}
	}
	if err := deriveQuirks(filepath.Join(dir, responses.Format.Name), "quirks", derivedFrom, quirk.All()); err != nil {
		return err
	}
	if err := deriveQuirks(dir, "quirks", derivedFrom, quirk.All()); err != nil {
		return err
	}
	return deriveQuirks(filepath.Join(dir, messages.Format.Name), "quirks", []string{demo.ScriptDemo}, quirk.OfAPI(messages.Format.Name))
}

// recordBase records each base script of a locale from the scripted gateway
// in one wire format: chat completions into dir, another format into
// dir/<format name>/.
func recordBase(dir string, lang tools.Lang, api *agent.Format) error {
	base, out := BaseURL, dir
	if api != chat.Format {
		out = filepath.Join(dir, api.Name)
		if api.BasePath == "" { // the root: Anthropic Messages, Gemini
			base = messagesBaseURL
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
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
		for _, q := range quirks {
			if !q.Benign {
				continue
			}
			out, err := quirk.ApplyToCassette(in, q, 1)
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
