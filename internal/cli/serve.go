package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/agentvcr/agentvcr/cassettes"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// serveUsage is serve's help; the formats come from package wire.
var serveUsage = `usage: agentvcr serve [-listen ADDR] [-cassette NAME|PATH]... [-script FILE]... [-match body|turn]
                      [-ignore PATH|volatile]...
                      [-quirk Q] [-rechunk MODE -seed N] [-pace D|recorded [-speed X]]
                      [-fault F]
                      [-journal FILE] [-lang zh|en] [-coalesce]
                      [-max-body SIZE] [-max-body-total SIZE] [-read-timeout D]

Serves cassettes until Ctrl-C, each on its own format's endpoint (POST
{base}PATH below), and GET /v1/models. The first line on stdout is the base
URL:

  ` + baseURLLine("http://127.0.0.1:PORT") + `

Each cassette also has its own base URL, /s/NAME/v1, and one per quirk,
/s/NAME~QUIRK/v1 (NAME is the cassette's file name without .yaml). With no
-cassette, the embedded base cassettes (chat completions) are served;
-cassette responses/NAME serves one recorded in the Responses format (under
NAME, on that format's path). Every request is answered on its own, so any
number of clients may share one server.

-record new -upstream URL answers what the cassette holds and forwards what
it misses to the gateway at URL, streaming the answer back and adding the
exchange to the cassette (redacted and scanned, as record saves: on Ctrl-C,
to a file beside it, renamed over it); -record all records a new one;
refused when CI=true. A request missed twice at once is forwarded once.

-script FILE serves a conversation written by hand (YAML: turns of reasoning,
text, calls, an HTTP status; see the README) at /s/NAME/v1 (NAME: its name:,
else the file's name) in every format, each request answered by the turn
of its place in the conversation or by the first turn whose user_contains
or user_matches its last user message meets; every quirk and fault applies.

A cassette is served on the path of the format it was recorded in; give a
client of that format the base URL its variable wants: the root for
Anthropic Messages (http://127.0.0.1:PORT, or .../s/NAME~QUIRK with a
messages_* quirk, e.g. -cassette messages/demo), .../v1 for OpenAI's. The
formats:
` + formatTable() + `

-match body answers the request whose canonical JSON body was recorded (a
miss is a 404 whose message diffs the request against the nearest recorded
one); -ignore PATH leaves a field out of that comparison, -ignore volatile
the fields that differ from run to run (end-user and session fields, cache
keys, tool-call ids); -match turn answers the reply recorded for the request that carries as
many assistant messages, whatever the prompt and tools say.

-fault KIND[:N][@TURN] breaks the replies: 429 (Retry-After N seconds, then
the real reply), 500, stall (N events, then silence), reset (connection
closed after N events), error-event (an error event after N events, in the
request's format); @TURN limits it to one turn of each conversation. The
Responses path also takes a WebSocket (Codex's transport: response.create
frames, each event a text frame), and these break its frames only: ws-split
(every event a fragmented message), ws-pair:N (the events after N in one
frame), ws-ping (8 pings before each event), ws-close:N (close code 1011),
ws-close-bare:N (a close frame with no code), ws-error:N (an in-band error
frame), ws-forget (the first continuation answered previous_response_not_found),
ws-refuse (every upgrade answered 426).

flags:
`

// cmdServe runs `agentvcr serve` until SIGINT or SIGTERM.
func cmdServe(env Env, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Serve(ctx, env, args)
}

// Serve runs `agentvcr serve` until ctx is done (the scenarios' serve
// command runs it in the background this way).
func Serve(ctx context.Context, env Env, args []string) int {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(env.Stderr)
	fl.Usage = func() {
		fmt.Fprint(env.Stderr, serveUsage)
		fl.PrintDefaults()
	}
	var (
		names, ignore, scripts                        listFlag
		listen, match, quirkName, chunks, fault, lang string
		journal, upstream, recordMode                 string
		seed                                          int64
		coalesce                                      bool
		readTimeout                                   time.Duration
		pace                                          paceFlag
		speed                                         float64
		maxBody                                       = byteSize(serve.MaxRequestBody)
		maxBodyTotal                                  = byteSize(serve.DefaultMaxBodyTotal)
	)
	fl.StringVar(&listen, "listen", "127.0.0.1:0", "listen on `ADDR` (loopback unless it says otherwise)")
	fl.Var(&names, "cassette", "serve this embedded cassette `NAME` or .yaml PATH (repeatable; default: the embedded base cassettes)")
	fl.Var(&scripts, "script", "serve the scripted conversation in `FILE` (YAML; repeatable): /s/NAME/v1 in every format, by turn or by the last user message")
	fl.StringVar(&upstream, "upstream", "", "with -record new or all: forward to the gateway at `URL` (its base URL, e.g. https://api.openai.com/v1)")
	fl.StringVar(&recordMode, "record", "none", "`MODE`: none (answer from the cassette only), new (forward what it misses to -upstream and add it to the cassette), all (forward everything, record a new cassette)")
	fl.StringVar(&match, "match", "body", "find replies by `MODE`: body (canonical JSON body) or turn")
	fl.Var(&ignore, "ignore", "-match body: leave the request field `PATH` out, e.g. messages.0.content (repeatable; * matches any key or index; volatile: "+strings.Join(cassette.VolatilePaths, ", ")+")")
	fl.StringVar(&quirkName, "quirk", "", "apply quirk `Q` to every case that names none")
	fl.StringVar(&chunks, "rechunk", "whole", "write streams in `MODE` pieces: whole (event by event), bytes, boundaries or random")
	fl.Int64Var(&seed, "seed", 1, "seed of -quirk and -rechunk random")
	fl.Var(&pace, "pace", "pause `D` before each streamed event, or recorded: send each event at the time it arrived when recorded (agentvcr record keeps it)")
	fl.Float64Var(&speed, "speed", 1, "with -pace recorded, replay `X` times as fast as recorded (0.5: twice as slow)")
	fl.BoolVar(&coalesce, "coalesce", false, "with no -pace or -rechunk, write each reply's events at once, without a flush between them (load tests)")
	fl.StringVar(&fault, "fault", "", "break the replies with `FAULT`: KIND[:N][@TURN], see above")
	fl.StringVar(&journal, "journal", "", "write each request and what answered it to `FILE` as JSON lines")
	fl.Var(&maxBody, "max-body", "answer 413 to a request body over `SIZE` (bytes, or KiB, MiB, GiB)")
	fl.Var(&maxBodyTotal, "max-body-total", "answer 503 to a request whose body would make the bodies still arriving hold more than `SIZE` together")
	fl.DurationVar(&readTimeout, "read-timeout", serve.DefaultReadTimeout, "answer 408 and drop a client that has not sent its whole body within `D`")
	fl.StringVar(&lang, "lang", env.Getenv("AGENTVCR_LANG"), "`LANG` of the embedded cassettes: zh or en (default $AGENTVCR_LANG, else zh)")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agentvcr serve: "+format+"\n", a...)
		return 2
	}
	if fl.NArg() > 0 {
		return usage("unexpected argument %q: pass cassettes with -cassette", fl.Arg(0))
	}
	l, err := tools.ParseLang(lang)
	if err != nil {
		return usage("%v", err)
	}
	router := &serve.CassetteRouter{Seed: seed, Pace: pace.every, PaceRecorded: pace.recorded, Speed: speed, Coalesce: coalesce}
	switch {
	case speed <= 0 || math.IsInf(speed, 0) || math.IsNaN(speed):
		return usage("-speed %v: give a positive factor, e.g. 2 for twice as fast", speed)
	case speed != 1 && !pace.recorded:
		return usage("-speed scales the recorded timing: give it with -pace recorded")
	case pace.recorded && chunks != "whole":
		return usage("-pace recorded times whole events: it cannot go with -rechunk %s", chunks)
	}
	if router.Match, err = serve.ParseMatchMode(match); err != nil {
		return usage("-match: %v", err)
	}
	if len(ignore) > 0 && router.Match != serve.MatchBody {
		return usage("-ignore leaves fields out of body matching: give it with -match body")
	}
	for _, p := range ignore {
		switch {
		case p == "volatile":
			router.Ignore = append(router.Ignore, cassette.VolatilePaths...)
		case p == "" || strings.HasPrefix(p, ".") || strings.HasSuffix(p, ".") || strings.Contains(p, ".."):
			return usage("-ignore %q: give a field path such as messages.0.content, or volatile", p)
		default:
			router.Ignore = append(router.Ignore, p)
		}
	}
	mode, err := rechunk.ParseMode(chunks)
	if err != nil {
		return usage("-rechunk: %v", err)
	}
	router.Rechunk = rechunk.Cutter{Mode: mode, Seed: seed}
	if router.Fault, err = serve.ParseFault(fault); err != nil {
		return usage("-fault: %v", err)
	}
	if quirkName != "" {
		if _, err := quirk.Lookup(quirkName); errors.Is(err, quirk.ErrUnknown) && !strings.Contains(quirkName, quirk.Separator) {
			return usage("unknown -quirk %q: pick one of %s", quirkName, strings.Join(quirk.Names(), ", "))
		} else if err != nil {
			return usage("-quirk %s: %v", quirkName, err)
		}
		router.Quirk = quirkName
	}
	rec, err := checkRecordMode(env, recordMode, upstream, names)
	if err != nil {
		return usage("%v", err)
	}
	if rec.mode != recordNone && env.Getenv("CI") == "true" {
		fmt.Fprintf(env.Stderr, "agentvcr serve: -record %s is refused when CI=true: it talks to a live gateway; record on your machine and commit the cassette (-record none replays only)\n", rec.mode)
		return 1
	}
	if rec.mode == recordAll {
		names = nil // a new cassette: nothing of the old one is served
	}
	scripted, err := readScripts(env, scripts)
	if err != nil {
		return usage("%v", err)
	}
	if len(scripted) > 0 && pace.recorded {
		return usage("-pace recorded sends events at their recorded times: a script has none; give -pace D")
	}
	route := router.Route
	if len(scripted) == 0 && rec.mode != recordAll || len(names) > 0 {
		if router.Cassettes, err = readServed(env, names, l); err != nil {
			fmt.Fprintf(env.Stderr, "agentvcr serve: %v\n", err)
			return 1
		}
	}
	if len(scripted) > 0 {
		sr := &serve.ScriptRouter{Scripts: scripted, Quirk: router.Quirk, Seed: seed, Fault: router.Fault, Pace: pace.every, Rechunk: router.Rechunk}
		if len(router.Cassettes) > 0 {
			sr.Next = router.Route
		}
		route = sr.Route
	}
	if pace.recorded {
		if err := checkTimed(router); err != nil {
			return usage("-pace recorded: %v", err)
		}
	}
	if len(router.Cassettes) > 0 {
		if _, err := router.Route(""); err != nil { // reads every cassette now, not on the first request
			fmt.Fprintf(env.Stderr, "agentvcr serve: %v\n", err)
			return 1
		}
	}

	if readTimeout <= 0 {
		return usage("-read-timeout %s: want a positive duration, e.g. 60s", readTimeout)
	}
	var miss *record.MissHandler // -record new or all
	if rec.mode != recordNone {
		var existing []*vcr.Interaction
		if rec.mode == recordNew {
			dc, err := router.Decoded(router.Cassettes[0].Name)
			if err != nil {
				fmt.Fprintf(env.Stderr, "agentvcr serve: %v\n", err)
				return 1
			}
			existing = dc.Interactions
		}
		p, err := record.NewAppendingProxy(upstream, rec.path, existing, env.Transport, env.Stderr)
		if err != nil {
			return usage("-upstream: %v", err)
		}
		miss = &record.MissHandler{Proxy: p}
		inner := route
		route = func(name string) (*serve.Route, error) {
			if rec.mode == recordAll {
				return &serve.Route{Answer: missEverything, Miss: miss, Preflight: true}, nil
			}
			r, err := inner(name)
			if err != nil {
				return nil, err
			}
			withMiss := *r
			withMiss.Miss = miss
			return &withMiss, nil
		}
	}
	s := &serve.Server{Route: route, Log: env.Stderr, MaxBody: int64(maxBody), MaxBodyTotal: int64(maxBodyTotal), ReadTimeout: readTimeout}
	if journal != "" {
		f, err := os.Create(env.path(journal))
		if err != nil {
			fmt.Fprintf(env.Stderr, "agentvcr serve: -journal: %v: pass a writable file path\n", err)
			return 1
		}
		defer f.Close()
		s.Journal = f
	}
	ln, err := listenTCP(listen)
	if err != nil {
		fmt.Fprintf(env.Stderr, "agentvcr serve: listen on %s: %v: pick another -listen port, or 127.0.0.1:0 for a free one\n", listen, err)
		return 1
	}
	base, stopServer, _ := s.Serve(ln)
	// Every start-up line on stderr comes before the URL on stdout, as in
	// record.
	if line := serve.Exposure("serve", ln.Addr()); line != "" {
		fmt.Fprintln(env.Stderr, line)
	}
	var served []string
	for _, sc := range scripted {
		served = append(served, "script "+sc.Name)
	}
	for _, c := range router.Cassettes {
		served = append(served, c.Name)
	}
	matching := ""
	if len(router.Cassettes) > 0 {
		matching = fmt.Sprintf(" (match %s)", router.Match)
	}
	fmt.Fprintf(env.Stderr, "agentvcr serve: %s%s; case URLs %s, %s; Ctrl-C stops\n",
		strings.Join(served, ", "), matching, serve.ScenarioURL(base, "NAME"), serve.ScenarioURL(base, "NAME~QUIRK"))
	if miss != nil {
		fmt.Fprintf(env.Stderr, "agentvcr serve: -record %s: forwarding what the cassette misses to %s, recording it into %s\n", rec.mode, record.ShownURL(upstream), rec.path)
	}
	fmt.Fprintf(env.Stdout, "%s=%s\n", wire.Default().BaseURLEnv, base)
	<-ctx.Done()
	code := exitOf(stopServer())
	if miss != nil && !saveMisses(env, miss.Proxy, rec) {
		code = 1
	}
	return code
}

// checkTimed refuses a cassette that keeps no event times: -pace recorded
// would serve it at once.
func checkTimed(router *serve.CassetteRouter) error {
	for _, c := range router.Cassettes {
		decoded, err := router.Decoded(c.Name)
		if err != nil {
			return err
		}
		n := cassette.Timed(decoded)
		if n == 0 {
			return fmt.Errorf("cassette %s keeps no event times (it was not recorded by agentvcr record, or before record kept them): record it again, or give -pace D", c.Name)
		}
	}
	return nil
}

func exitOf(err error) int {
	if err != nil {
		return 1
	}
	return 0
}

// readServed reads the cassettes -cassette names (embedded names in the
// locale, or .yaml paths), or every embedded base cassette when none is
// named. Each is served under its file name without .yaml.
func readServed(env Env, names []string, lang tools.Lang) ([]serve.ServedCassette, error) {
	if len(names) == 0 {
		names = embeddedBaseNames()
	}
	var out []serve.ServedCassette
	for _, n := range names {
		sc := serve.ServedCassette{Name: strings.TrimSuffix(filepath.Base(n), ".yaml")}
		if strings.HasSuffix(n, ".yaml") {
			// served from the file, decoded as it is read
			sc.Path = env.path(n)
			if err := readable(sc.Path); err != nil {
				return nil, fmt.Errorf("cannot read cassette %s: %w; pass a readable .yaml path", n, err)
			}
		} else if data, err := fs.ReadFile(cassettes.FS, cassette.File(n, lang)); err != nil {
			return nil, fmt.Errorf("no embedded cassette %q: pass a .yaml path or one of %s", n, strings.Join(embeddedBaseNames(), ", "))
		} else {
			sc.Data = data
		}
		for _, c := range out {
			if c.Name == sc.Name {
				return nil, fmt.Errorf("two cassettes are named %q: rename one file", sc.Name)
			}
		}
		out = append(out, sc)
	}
	return out, nil
}

// readable fails as os.ReadFile would on path, reading one byte of it.
func readable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Read(make([]byte, 1)); err != nil && err != io.EOF {
		return err
	}
	return nil
}

// embeddedBaseNames lists the embedded base cassettes, sorted.
func embeddedBaseNames() []string {
	files, _ := fs.Glob(cassettes.FS, "*.yaml") // the pattern is valid
	var names []string
	for _, f := range files {
		n := strings.TrimSuffix(strings.TrimSuffix(f, ".yaml"), ".en")
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// readScripts reads the -script files, each checked (gateway.ReadScriptFile):
// a bad one is one line naming the file, the line and the problem.
func readScripts(env Env, paths []string) ([]gateway.Script, error) {
	var formats []string
	for _, f := range wire.All() {
		formats = append(formats, f.Name)
	}
	quirkOK := func(name string) error {
		_, err := quirk.Lookup(name)
		return err
	}
	var out []gateway.Script
	for _, p := range paths {
		data, err := os.ReadFile(env.path(p))
		if err != nil {
			return nil, fmt.Errorf("-script %s: %w", p, errors.Unwrap(err))
		}
		s, err := gateway.ReadScriptFile(p, data, formats, quirkOK)
		if err != nil {
			return nil, err
		}
		for _, o := range out {
			if o.Name == s.Name {
				return nil, fmt.Errorf("-script %s: a script named %q is served already: give one a name of its own (name:)", p, s.Name)
			}
		}
		out = append(out, s)
	}
	return out, nil
}
