package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/internal/outfile"
	"github.com/agentvcr/agentvcr/wire"
)

// conformUsage is conform's help; the formats come from package wire.
var conformUsage = `usage: agentvcr conform [flags] -- COMMAND [ARGS...]

Runs COMMAND (your agent) once per case of the quirk catalog, each with
every format's base URL variable set to the case's own URL on a loopback
server, every key variable to a dummy key and AGENTVCR_CASE to the case's
id, and checks the request the agent sends after each broken stream shape.
-api names the format the agent speaks (default ` + wire.Default().Name + `); each has its own
catalog:
` + formatTable() + `

The probe reads the tools of the agent's first request and answers with one
turn calling two of them in parallel (by default only tools whose names say
they read: read, view, cat, list, ls, glob, find, grep, search; -call names
others), then with a short conclusion.

Recorded mode (-cassette FILE, recorded from the agent with agentvcr record):
the cassette's replies are served by turn, first as recorded (the agent must
send the requests it sent when recorded), then under every benign quirk
(its requests must equal that first run's; tool-call ids are compared by
position; -ignore leaves out fields the agent varies).

Exit status: 0 when every case passes or fails as the baseline says; 1 on a
failure the baseline does not list, or a baseline entry that now passes;
2 on a usage error.

flags:
`

// conformFlags are the flags of `agentvcr conform`.
type conformFlags struct {
	calls, cases, ignore, passEnv          listFlag
	caseDirs                               listFlag
	providers                              listFlag
	cassette, api                          string
	parallel                               int
	timeout, stallTimeout                  time.Duration
	retryTimeout                           time.Duration
	jsonOut, junitOut, htmlOut, out, basel string
	shard                                  string
	list                                   bool
	quiet                                  bool
}

// cmdConform runs `agentvcr conform`.
func cmdConform(env Env, args []string) int {
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, conformUsage)
		fs.PrintDefaults()
	}
	var f conformFlags
	fs.Var(&f.calls, "call", "call the tool `NAME[=ARGS_JSON]` in the probe's turn (repeatable; default: the first two read-only tools)")
	fs.Var(&f.cases, "case", "run only the case `ID` (repeatable; -list shows them; q1+q2 composes quirk cases)")
	fs.Var(&f.caseDirs, "cases", "run the case files (*"+conform.CaseFileExt+") of `DIR` beside the catalog, those of this -api (repeatable; each composes catalog quirks under an id of its own)")
	fs.IntVar(&f.parallel, "p", 4, "run `N` cases at once")
	fs.BoolVar(&f.quiet, "q", false, "write no progress to stderr (by default: a line per finished case, or on a terminal a status line redrawn in place)")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "kill a case's agent after `D`, counted from its start and again from each request it sends (an agent still retrying is not hung), up to -retry-timeout")
	fs.DurationVar(&f.retryTimeout, "retry-timeout", conform.DefaultRetryTimeout, "kill a case's agent that keeps sending requests after `D` at most (opencode retries a broken stream for about 77 s; never below -timeout)")
	fs.DurationVar(&f.stallTimeout, "stall-timeout", conform.DefaultStallTimeout, "kill a stall case's agent after `D` (real agents give up on a silent stream after 240 to 300 s; never below -timeout)")
	fs.StringVar(&f.jsonOut, "json", "", "write the checks as JSON to `FILE`")
	fs.StringVar(&f.htmlOut, "html", "", "write the run as one self-contained HTML page to `FILE`: per case the verdict, the stream served against the clean one, the requests, the output")
	fs.StringVar(&f.junitOut, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&f.basel, "baseline", "", "expected failures: a `FILE` of case ids, one per line")
	fs.StringVar(&f.out, "out", "", "keep each case's stdout, stderr, requests (request-N.json; side requests side-N.json; requests on no format's path unrouted-N.txt) and answers (answer-N.sse, a whole turn answer-N.json, the clean turn a transform changed answer-N.clean.sse) under `DIR`/<case>/ (made fresh; a symbolic link under DIR is refused)")
	fs.StringVar(&f.cassette, "cassette", "", "recorded mode: replay this cassette `FILE`, recorded from the agent, clean then under every benign quirk")
	fs.Var(&f.ignore, "ignore", "recorded mode: leave the request field `PATH` out of the comparison, e.g. messages.0.content (repeatable; * matches any key or index)")
	fs.StringVar(&f.api, "api", wire.Default().Name, "the agent's wire `FORMAT`: "+apiNames(", ")+"; each runs its own catalog")
	fs.BoolVar(&f.list, "list", false, "list the cases and exit")
	fs.StringVar(&f.shard, "shard", "", "run shard `I/N` of the cases: every N-th from the I-th in catalog order, the same split on every machine (the probe runs in every shard, shard 1 reports it); join the shards' -json reports with agentvcr report merge")
	fs.Var(&f.providers, "provider", "the agent targets the provider `NAME` ("+strings.Join(conform.Providers, ", ")+"; repeatable; default all): another provider's echo case that fails is reported apart and does not fail the run")
	fs.Var(&f.passEnv, "pass-env", "keep the credential variable `NAME` of conform's environment for the agent (repeatable; every other *_API_KEY, *_TOKEN, *_SECRET* and every variable of a model provider is dropped, and -out lists the names dropped in "+conform.DroppedFile+")")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	format, err := conform.FormatByName(f.api)
	if err != nil {
		fmt.Fprintf(env.Stderr, "agentvcr conform: -api: %v\n", err)
		return 2
	}
	all := format.Cases()
	if f.cassette != "" {
		all = conform.RecordedCases(format)
	}
	if len(f.caseDirs) > 0 {
		if f.cassette != "" {
			fmt.Fprintf(env.Stderr, "agentvcr conform: -cases with -cassette: case files compose quirks on the probe's turn, recorded mode replays a cassette; run them apart\n")
			return 2
		}
		dirs := make([]string, len(f.caseDirs))
		for i, d := range f.caseDirs {
			dirs[i] = env.path(d)
		}
		own, other, err := conform.ReadCaseFiles(format, all, dirs)
		if err != nil {
			fmt.Fprintf(env.Stderr, "agentvcr conform: -cases: %v\n", err)
			return 2
		}
		for i := range own {
			own[i].File = env.shown(own[i].File)
		}
		if len(other) > 0 {
			fmt.Fprintf(env.Stderr, "agentvcr conform: -cases: %d case file(s) of another -api not run here: %s\n", len(other), strings.Join(other, ", "))
		}
		all = append(slices.Clip(all), own...)
	}
	if f.list {
		width := 18
		for _, c := range all {
			width = max(width, len(c.ID))
		}
		for _, c := range all {
			fmt.Fprintf(env.Stdout, "%-*s %-7s %s\n", width, c.ID, c.Tier, c.Doc)
		}
		return 0
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agentvcr conform: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() == 0 {
		return usage("no agent to run: give its command after --, e.g. agentvcr conform -- node agent.js")
	}
	if f.parallel < 1 {
		return usage("-p %d: run at least 1 case at a time", f.parallel)
	}
	if f.timeout <= 0 {
		return usage("-timeout %s: give a positive duration such as 30s", f.timeout)
	}
	if f.stallTimeout <= 0 {
		return usage("-stall-timeout %s: give a positive duration such as 6m", f.stallTimeout)
	}
	if f.retryTimeout <= 0 {
		return usage("-retry-timeout %s: give a positive duration such as 5m", f.retryTimeout)
	}
	if err := conform.CheckProviders(f.providers); err != nil {
		return usage("-provider: %v", err)
	}
	var ids []string
	for _, c := range f.cases {
		ids = append(ids, strings.Split(c, ",")...)
	}
	cases, err := conform.SelectCases(all, ids)
	if err != nil {
		return usage("%v (agentvcr conform -list describes them)", err)
	}
	var shard conform.Shard
	if f.shard != "" {
		if shard, err = conform.ParseShard(f.shard); err != nil {
			return usage("-shard: %v", err)
		}
		if cases, err = shard.Cases(cases); err != nil {
			return usage("-shard: %v", err)
		}
	}
	var calls []conform.CallSpec
	for _, c := range f.calls {
		spec, err := conform.ParseCallSpec(c)
		if err != nil {
			return usage("%v", err)
		}
		calls = append(calls, spec)
	}
	var rec *conform.Recording
	switch {
	case f.cassette != "":
		if rec, err = conform.ReadRecording(env.path(f.cassette)); err != nil {
			return usage("%v", err)
		}
		rec.Ignore = f.ignore
	case len(f.ignore) > 0:
		return usage("-ignore compares requests with a recording: give it with -cassette FILE")
	}
	baseline := conform.Baseline{}
	if f.basel != "" {
		if baseline, err = conform.ReadBaseline(env.path(f.basel), all); err != nil {
			return usage("%v", err)
		}
	}
	outputs, err := openConformOutputs(env, f)
	if err != nil {
		return usage("%v", err)
	}
	defer outputs.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cmd := conform.Command{Path: fs.Arg(0), Args: fs.Args()[1:], Dir: env.Dir, PassEnv: f.passEnv}
	progress, stopProgress := conformProgress(env, f.quiet)
	results, err := conform.Run(ctx, conform.Options{Command: cmd, Cases: cases, Calls: calls, Parallel: f.parallel, Timeout: f.timeout, StallTimeout: f.stallTimeout, RetryTimeout: f.retryTimeout, Recording: rec, Format: format, Progress: progress})
	stopProgress()
	if err != nil {
		fmt.Fprintf(env.Stderr, "agentvcr conform: %v\n", err)
		return 2
	}
	results = shard.Reported(results)
	conform.MarkProviders(results, f.providers)
	unexpected, stale := baseline.Judge(results)
	run := conform.RunInfo{API: format.Name, Agent: conform.AgentName(fs.Args()), Cassette: f.cassette, Shard: shard.String()}
	if err := outputs.write(f, run, results); err != nil {
		fmt.Fprintf(env.Stderr, "agentvcr conform: %v\n", err)
		return 1
	}
	conform.WriteTable(env.Stdout, results)
	return verdictCode(env, "agentvcr conform", unexpected, stale, f.basel)
}

// verdictCode says which failures the baseline does not list and which of
// its entries now pass, and returns the exit status: 1 for either, else 0.
func verdictCode(env Env, prefix string, unexpected []conform.Result, stale []string, baseline string) int {
	code := 0
	if len(unexpected) > 0 {
		var names []string
		for _, r := range unexpected {
			names = append(names, r.Case.ID)
		}
		fmt.Fprintf(env.Stderr, "%s: failed, and not in the baseline: %s (fix the agent, or list them in a -baseline file)\n", prefix, strings.Join(names, ", "))
		code = 1
	}
	if len(stale) > 0 {
		fmt.Fprintf(env.Stderr, "%s: the baseline lists cases that now pass: %s (remove them from %s)\n", prefix, strings.Join(stale, ", "), baseline)
		code = 1
	}
	return code
}

// conformOutputs are conform's -json, -junit, -html and -out, each folder opened
// before the agent runs (outfile, conform.OpenOut): a link the agent
// plants in a folder's place is not followed, and a missing folder is a
// usage error before anything runs rather than a lost report after it.
type conformOutputs struct {
	json, junit, html *outfile.File
	out               *conform.OutDir
}

func openConformOutputs(env Env, f conformFlags) (conformOutputs, error) {
	var o conformOutputs
	var err error
	if o.json, err = openReport(env, "-json", f.jsonOut); err != nil {
		return o, err
	}
	if o.junit, err = openReport(env, "-junit", f.junitOut); err != nil {
		o.close()
		return o, err
	}
	if o.html, err = openReport(env, "-html", f.htmlOut); err != nil {
		o.close()
		return o, err
	}
	if f.out != "" {
		if o.out, err = conform.OpenOut(env.path(f.out)); err != nil {
			o.close()
			return o, err
		}
	}
	return o, nil
}

// write writes -json, -junit, -html and -out.
func (o conformOutputs) write(f conformFlags, run conform.RunInfo, results []conform.Result) error {
	if err := writeReport(o.json, func(w io.Writer) error { return conform.WriteRunJSON(w, run, results) }); err != nil {
		return err
	}
	if err := writeReport(o.junit, func(w io.Writer) error { return conform.WriteJUnit(w, results) }); err != nil {
		return err
	}
	if err := writeReport(o.html, func(w io.Writer) error { return conform.WriteHTML(w, run, results) }); err != nil {
		return err
	}
	if o.out == nil {
		return nil
	}
	_, dropped := conform.ScrubEnv(os.Environ(), f.passEnv) // what runAgent dropped
	return o.out.Write(results, dropped)
}

func (o conformOutputs) close() {
	for _, f := range []*outfile.File{o.json, o.junit, o.html} {
		if f != nil {
			f.Close()
		}
	}
	if o.out != nil {
		o.out.Close()
	}
}

// openReport opens the report file path a flag names (outfile.Open); no
// path, no file.
func openReport(env Env, flag, path string) (*outfile.File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := outfile.Open(env.path(path))
	if err != nil && flag != "" {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return f, err
}

// writeReport writes one report file with write (outfile's rule: a
// temporary file beside it, renamed over it); no file, nothing.
func writeReport(f *outfile.File, write func(io.Writer) error) error {
	if f == nil {
		return nil
	}
	return f.Write(write)
}

// conformProgress is the progress a run writes to stderr: none with -q; a
// status line redrawn in place when stderr is a terminal; else a line per
// finished case. stop ends it.
func conformProgress(env Env, quiet bool) (p conform.Progress, stop func()) {
	if quiet {
		return nil, func() {}
	}
	if f, ok := env.Stderr.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			t := conform.NewTerminalProgress(env.Stderr)
			return t, t.Stop
		}
	}
	return conform.LineProgress(env.Stderr), func() {}
}
