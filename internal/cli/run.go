package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/responsesws"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// runUsage is run's help; the formats come from package wire.
var runUsage = `usage: agentvcr run [-api ` + apiNames("|") + `] [-C DIR] [-cassette NAME|PATH] [-inject KIND] [-sse FILE]...
                    [-base-url URL -model M] [-record PATH]
                    [-lang zh|en] [-json] [-max-turns N] [PROMPT]

With no flags: the offline demo. The embedded sandbox repository is written
to a temporary folder and the embedded "demo" cassette is replayed against it.
An embedded cassette replays on the sandbox, a .yaml file on this folder,
unless -C says otherwise.

Replay (offline): -cassette names an embedded cassette (demo, demo_bad_args,
parallel, quirks/parallel.interleaved_calls, ...) or a .yaml file; -inject
bad_args or unknown_tool (default: $INJECT) picks the demo variant with that
fault; -sse FILE (repeatable) serves raw SSE files as the model's turns, in
order; -script FILE replays a conversation written by hand (serve -script's
YAML) in -api's format. The model, prompt and endpoint default to those the cassette recorded.

Live: -base-url (or the format's base URL variable) and -model (or
AGENTVCR_MODEL), with the key in the format's key variable; the workspace is
-C DIR (default: this folder). -api picks the wire format (default ` + wire.Default().Name + `):
` + formatTable() + `On replay -api picks the demo recorded in that format (messages/demo,
messages/demo_bad_args...), and a cassette or -sse file speaks the format it
was recorded in.
-record PATH also writes the conversation to a cassette, redacted and
scanned for the key. Recording is refused when CI=true.

flags:
`

// runFlags are the flags of `agentvcr run`.
type runFlags struct {
	dir, cassette, inject, baseURL, model, record, lang, rechunk, api string
	// transport is -transport: "http" (or "") or "websocket".
	transport string
	// injectEnv: inject came from $INJECT, not from -inject.
	injectEnv                  bool
	sse                        listFlag
	script                     string
	json                       bool
	maxTurns                   int
	seed                       int64
	headerTimeout, idleTimeout time.Duration
	retries                    int
	retryBackoff               time.Duration
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// cmdRun runs `agentvcr run`.
func cmdRun(env Env, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, runUsage)
		fs.PrintDefaults()
	}
	var f runFlags
	fs.StringVar(&f.api, "api", "", "wire `FORMAT`: "+apiNames(", ")+" (default "+wire.Default().Name+"); replay: the cassette's")
	fs.StringVar(&f.dir, "C", "", "workspace `DIR` (replay default: the embedded sandbox; live default: this folder)")
	fs.StringVar(&f.cassette, "cassette", "", "replay this embedded cassette `NAME` or .yaml PATH")
	fs.StringVar(&f.inject, "inject", "", "replay the demo with a fault: bad_args or unknown_tool (default $INJECT)")
	fs.Var(&f.sse, "sse", "serve this raw SSE `FILE` as the next model turn (repeatable)")
	fs.StringVar(&f.script, "script", "", "replay the scripted conversation in `FILE` (YAML, as serve -script reads it), in -api's format")
	fs.StringVar(&f.baseURL, "base-url", "", "live gateway `URL` (default: the format's base URL variable, e.g. $"+wire.Default().BaseURLEnv+"), e.g. "+wire.Default().ExampleBaseURL)
	fs.StringVar(&f.model, "model", "", "live model `M` (default $AGENTVCR_MODEL)")
	fs.StringVar(&f.record, "record", "", "live: also write the conversation to the cassette `PATH`")
	fs.StringVar(&f.transport, "transport", "http", "live, -api responses: send the requests over `T`, http or websocket (response.create frames on one connection, continuing each response; HTTP after a 426)")
	fs.StringVar(&f.lang, "lang", env.Getenv("AGENTVCR_LANG"), "locale: zh or en (default $AGENTVCR_LANG, else zh)")
	fs.BoolVar(&f.json, "json", false, "print one JSON event per line instead of cards")
	fs.IntVar(&f.maxTurns, "max-turns", agent.DefaultMaxTurns, "stop after `N` requests")
	fs.StringVar(&f.rechunk, "rechunk", "random", "replay: how bodies reach the SSE reader: whole, bytes, boundaries or random")
	fs.Int64Var(&f.seed, "seed", 1, "replay: seed of -rechunk random")
	fs.DurationVar(&f.headerTimeout, "header-timeout", agent.DefaultHeaderTimeout, "live: give up on a request without response headers after `D` (connecting included; 0: never)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", agent.DefaultIdleTimeout, "live: give up on a stream silent for `D` between events (0: never)")
	fs.IntVar(&f.retries, "retries", agent.DefaultRetries, "live: retry a request `N` times after 429, 5xx, a header timeout or a connection error, before any event")
	backoff, err := retryBackoff(env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "agentvcr run: %v\n", err)
		return 2
	}
	fs.DurationVar(&f.retryBackoff, "retry-backoff", backoff, "live: wait `D` before the first retry when the answer names no Retry-After, doubling per retry (default $"+retryBackoffEnv+", else 0.5s)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if !flagSet(fs, "inject") && env.Getenv("INJECT") != "" {
		f.inject, f.injectEnv = env.Getenv("INJECT"), true
	}
	lang, err := tools.ParseLang(f.lang)
	if err != nil {
		fmt.Fprintf(env.Stderr, "agentvcr run: %v\n", err)
		return 2
	}
	env.temps = &tempDirs{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signalled, stop := watchSignals(env, cancel)
	defer stop()
	s, err := newSession(env, f, lang, strings.Join(fs.Args(), " "))
	if sig := signalled(); sig != nil {
		if err == nil {
			// Discards a recording and removes the sandbox; the interruption
			// is what the run reports.
			_ = s.finish(context.Canceled)
		}
		env.temps.removeAll()
		fmt.Fprintf(env.Stderr, "agentvcr run: interrupted (%s)\n", signalName(sig))
		return exitCode(sig)
	}
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(env.Stderr, "agentvcr run: %v\n", err)
			return 2
		}
		fmt.Fprintf(env.Stderr, "agentvcr run: %v\n", err)
		return 1
	}
	r := renderer{w: env.Stdout, warn: env.Stderr, lang: lang, json: f.json, color: env.Color && !f.json}
	if err := s.run(ctx, r.event); err != nil {
		if sig := signalled(); sig != nil {
			fmt.Fprintf(env.Stderr, "agentvcr run: interrupted (%s): the run was cancelled\n", signalName(sig))
			return exitCode(sig)
		}
		for _, e := range unjoin(err) {
			fmt.Fprintf(env.Stderr, "agentvcr run: %s\n", visible(explain(e, s.client)))
		}
		return 1
	}
	return 0
}

// usageError is a flag combination that cannot work: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// A session is one prepared run: a workspace, a client whose transport is
// live, recording or replaying, and the first messages.
type session struct {
	client   *agent.Client
	registry *tools.Registry
	msgs     []agent.Message
	maxTurns int
	// finish releases what the session holds (a cassette, a temporary
	// sandbox) and reports a cassette's own failures (unused interactions,
	// a secret in the file). runErr is the run's own error: a recording of
	// a failed run is discarded.
	finish func(runErr error) error
}

// run drives the loop, handing each event to onEvent, then finishes the
// session.
func (s *session) run(ctx context.Context, onEvent func(agent.Event)) error {
	loop := agent.Loop{Client: s.client, Tools: s.registry, MaxTurns: s.maxTurns, OnEvent: onEvent}
	_, err := loop.Run(ctx, s.msgs)
	return errors.Join(err, s.finish(err))
}

// newSession prepares a run from the flags: live when a gateway or model is
// named (or a recording asked for), replay otherwise.
func newSession(env Env, f runFlags, lang tools.Lang, prompt string) (*session, error) {
	live := f.baseURL != "" || f.model != "" || f.record != ""
	if err := f.checkInject(live); err != nil {
		return nil, err
	}
	if err := checkTransport(f, live); err != nil {
		return nil, err
	}
	if live && (f.cassette != "" || f.inject != "" || len(f.sse) > 0 || f.script != "") {
		return nil, usageError{"-cassette, -inject, -sse and -script replay; -base-url, -model and -record run live: pick one"}
	}
	if f.script != "" && (f.cassette != "" || f.inject != "" || len(f.sse) > 0) {
		return nil, usageError{"-script is a source of model turns, as -cassette, -inject and -sse are: pick one"}
	}
	if f.inject != "" && f.cassette != "" {
		return nil, usageError{"-inject picks a variant of the demo cassette; it cannot be combined with -cassette"}
	}
	if len(f.sse) > 0 && f.cassette != "" {
		return nil, usageError{"-sse and -cassette are two sources of model turns: pick one"}
	}
	var api *agent.Format
	if f.api != "" {
		var err error
		if api, err = wire.ByName(f.api); err != nil {
			return nil, usageError{"-api: " + err.Error()}
		}
	}
	var cleanups []func(runErr error) error
	s := &session{maxTurns: f.maxTurns}
	s.finish = func(runErr error) error {
		var errs []error
		for i := len(cleanups) - 1; i >= 0; i-- {
			errs = append(errs, cleanups[i](runErr))
		}
		return errors.Join(errs...)
	}
	fail := func(err error) (*session, error) {
		s.finish(err)
		return nil, err
	}
	var (
		transport http.RoundTripper
		model     string
		baseURL   string
		key       string
		dir       = env.path(f.dir)
	)
	switch {
	case live:
		var err error
		if api == nil {
			api = chat.Format
		}
		if baseURL, model, key, err = liveSettings(env, f, api); err != nil {
			return nil, err
		}
		if dir == "" {
			dir = env.Dir
		}
		next := env.Transport
		if f.transport == transportWebSocket {
			if api != responses.Format {
				return nil, usageError{fmt.Sprintf("-transport websocket: only -api responses speaks it (this run is -api %s)", api.Name)}
			}
			ws := &responsesws.Transport{Next: env.Transport, Stale: func(frame []byte) {
				fmt.Fprintf(env.Stderr, "agentvcr run: dropped a frame that came after its response's end, before the next request (no request asked for it): %.120s\n", frame)
			}}
			cleanups = append(cleanups, func(error) error { ws.Close(); return nil })
			next = ws
		}
		transport = &agent.LiveTransport{Next: next, HeaderTimeout: f.headerTimeout, IdleTimeout: f.idleTimeout, Retries: f.retries, RetryBackoff: f.retryBackoff}
		if f.record != "" {
			c, err := openRecording(env, env.path(f.record), key, transport)
			if err != nil {
				return nil, err
			}
			transport = c.Transport()
			cleanups = append(cleanups, func(runErr error) error {
				if runErr == nil {
					return c.Stop()
				}
				if err := c.Discard(); err != nil {
					return err
				}
				return fmt.Errorf("nothing recorded: the run failed, so %s was left as it was", f.record)
			})
		}
	case f.script != "":
		scripts, err := readScripts(env, []string{f.script})
		if err != nil {
			return nil, usageError{err.Error()}
		}
		if api == nil && scripts[0].Format != "" {
			api, _ = wire.ByName(scripts[0].Format) // ReadScriptFile checked the name
		}
		if api == nil {
			api = wire.Default()
		}
		srv := &serve.Server{Route: (&serve.ScriptRouter{Scripts: scripts}).Route}
		transport = handlerTransport{srv}
		baseURL, model = wire.BaseURL(api, "http://script.invalid"), scripts[0].Name
	case len(f.sse) > 0:
		files := make([]string, len(f.sse))
		for i, p := range f.sse {
			files[i] = env.path(p)
		}
		transport = gateway.SSEFiles(files)
		baseURL, model = "http://sse.invalid/v1", "sse-files"
		if api == nil {
			api = detectFile(files[0])
		}
	default:
		rc, err := rechunk.ParseMode(f.rechunk)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		c, rec, cleanup, err := openReplay(env, f, api, lang, rechunk.Cutter{Mode: rc, Seed: f.seed})
		if err != nil {
			return nil, err
		}
		if api != nil && api != rec.API {
			cleanup()
			return nil, usageError{fmt.Sprintf("-api %s: the cassette was recorded in %s", api.Name, rec.API.Name)}
		}
		api = rec.API
		cleanups = append(cleanups, func(error) error { return cleanup() })
		if dir == "" && strings.HasSuffix(f.cassette, ".yaml") {
			dir = env.Dir // a cassette of one's own replays where it was recorded
		}
		transport = c.Transport()
		baseURL, model = rec.BaseURL, rec.Model
		if prompt == "" {
			prompt = rec.Prompt
		}
	}
	if dir == "" {
		tmp, err := env.mkdirTemp("agentvcr-sandbox-")
		if err != nil {
			return fail(fmt.Errorf("sandbox: %w", err))
		}
		cleanups = append(cleanups, func(error) error { return os.RemoveAll(tmp) })
		if err := demo.WriteSandbox(tmp); err != nil {
			return fail(err)
		}
		dir = tmp
	}
	if prompt == "" {
		prompt = demo.Prompt(lang)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		return fail(fmt.Errorf("workspace: %w", err))
	}
	s.registry = tools.Default(ws, lang)
	if env.WrapTransport != nil {
		transport = env.WrapTransport(transport)
	}
	s.client = &agent.Client{BaseURL: baseURL, APIKey: key, Model: model, HTTPClient: &http.Client{Transport: transport}, Format: api}
	s.msgs = []agent.Message{
		{Role: agent.RoleSystem, Content: agent.SystemPrompt(lang)},
		{Role: agent.RoleUser, Content: prompt},
	}
	return s, nil
}

// unjoin lists the errors inside an errors.Join, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkInject refuses a fault kind the demo has no variant for, and a fault
// from $INJECT that another source of model turns would silently ignore.
// Errors name where the kind came from: -inject or INJECT.
func (f runFlags) checkInject(live bool) error {
	if f.inject == "" {
		return nil
	}
	from := "-inject " + f.inject
	if f.injectEnv {
		from = "INJECT=" + f.inject
	}
	if _, ok := injections[f.inject]; !ok {
		return usageError{fmt.Sprintf("unknown fault in %s (want bad_args or unknown_tool)", from)}
	}
	var other string
	switch {
	case live:
		other = "-base-url, -model or -record (a live run)"
	case f.cassette != "":
		other = "-cassette"
	case len(f.sse) > 0:
		other = "-sse"
	}
	switch {
	case other == "":
		return nil
	case f.injectEnv:
		return usageError{fmt.Sprintf("%s replays a fault variant of the demo and cannot be combined with %s: unset INJECT", from, other)}
	case other == "-sse":
		return usageError{fmt.Sprintf("%s replays a fault variant of the demo and cannot be combined with -sse", from)}
	}
	return nil // -inject with -cassette or a live flag: refused with the other combinations
}

// transportWebSocket is -transport websocket.
const transportWebSocket = "websocket"

// checkTransport refuses a -transport run cannot use: one that is not
// http or websocket, or websocket on a replay (a cassette or an SSE file
// is read, not dialed).
func checkTransport(f runFlags, live bool) error {
	switch f.transport {
	case "", "http":
		return nil
	case transportWebSocket:
		if !live {
			return usageError{"-transport websocket is for a live run (-base-url or the format's base URL variable): a replay reads its cassette, it dials nothing"}
		}
		return nil
	}
	return usageError{fmt.Sprintf("-transport %q: want http or websocket", f.transport)}
}

// handlerTransport answers each request with h in this process: what
// -script replays through (the script's server, with no listener).
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, req)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}
