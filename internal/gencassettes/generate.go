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

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness"
	"github.com/agentvcr/agentvcr/internal/cli"
	"github.com/agentvcr/agentvcr/tools"
)

// BaseURL is the gateway address written into the base cassettes.
const BaseURL = "http://scripted-gateway.agentvcr.test/v1"

// key is the API key the generator records with. The gateway requires it,
// so the recording path handles a real Authorization header; redaction and
// the secret scan keep it out of the files.
const key = "sk-test-agentvcr-generate-0123456789"

// derivedFrom are the base cassettes whose quirk variants are written to
// quirks/: the demo conversation and the turn with two parallel calls.
var derivedFrom = []string{demo.ScriptDemo, demo.ScriptParallel}

// formats are the wire formats the base cassettes are recorded in, each in
// its own folder: chat completions at the top, Responses in responses/.
var formats = []struct{ api, folder string }{
	{"chat", ""},
	{"responses", "responses"},
}

// generate writes every cassette into dir, for each format's folder:
// <script>.yaml and <script>.en.yaml for each base script, and
// quirks/<base>.<quirk>.yaml for each benign quirk that applies (a
// Responses quirk's name without its "responses_" prefix). Files it did not
// write are removed from the quirks/ folders, so dir holds exactly the
// generator's output.
func generate(dir string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, f := range formats {
		sub := filepath.Join(dir, f.folder)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for _, lang := range []tools.Lang{tools.ZH, tools.EN} {
			if err := recordBase(sub, f.api, lang); err != nil {
				return err
			}
		}
		if err := deriveQuirks(sub); err != nil {
			return err
		}
	}
	return nil
}

// recordBase records each base script of a locale from the scripted
// gateway, in the wire format api.
func recordBase(dir, api string, lang tools.Lang) error {
	gw := harness.NewGateway(key, demo.Scripts(lang)...)
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
		env := cli.Env{Dir: dir, Getenv: cli.Vars(map[string]string{"OPENAI_API_KEY": key}), Transport: transport}
		args := []string{"run", "-api", api, "-C", sandbox, "-base-url", BaseURL, "-model", s.Name,
			"-lang", string(lang), "-record", filepath.Join(dir, harness.CassetteFile(s.Name, lang)), demo.Prompt(lang)}
		if code, _, stderr := cli.Capture(env, args...); code != 0 {
			return fmt.Errorf("recording %s (%s): exit %d: %s", s.Name, lang, code, strings.TrimSpace(stderr))
		}
	}
	if refused := gw.Refused(); len(refused) > 0 {
		return fmt.Errorf("the scripted gateway refused requests: %w", errors.Join(refused...))
	}
	return nil
}

// deriveQuirks writes quirks/<base>.<quirk>.yaml for every benign quirk
// that applies to a derivedFrom cassette, and removes stale files there.
func deriveQuirks(dir string) error {
	qdir := filepath.Join(dir, "quirks")
	if err := os.MkdirAll(qdir, 0o755); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, base := range derivedFrom {
		in, err := os.ReadFile(filepath.Join(dir, harness.CassetteFile(base, tools.ZH)))
		if err != nil {
			return err
		}
		for _, q := range harness.Quirks() {
			if !q.Benign {
				continue
			}
			out, err := harness.ApplyQuirkToCassette(in, q, 1)
			if errors.Is(err, harness.ErrQuirkNotApplicable) {
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
