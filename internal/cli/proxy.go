package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/agentvcr/agentvcr/harness/chaos"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/wire"
)

// proxyUsage is proxy's help; the formats come from package wire.
var proxyUsage = `usage: agentvcr proxy -upstream URL [-api FORMAT] -quirk Q [-fault KIND[:N][@TURN]]
                      [-seed N] [-max-held SIZE] [-o FILE] [-listen ADDR]

Chaos on live traffic. Point the agent's base URL at the URL on the first
stdout line (` + baseURLLine("http://127.0.0.1:PORT") + `); each request goes on to
-upstream with the agent's own headers and key, as agentvcr record sends it,
and each streamed answer comes back broken, as it arrives: rewritten by the
catalog's quirk Q (seed N for the first answer, N+1 for the next...) and/or
broken by the fault, as agentvcr serve breaks its replies (429 and 500
answer here without reaching the upstream; stall, reset and error-event cut
the stream after N events). A quirk holds back only what its edit needs:
nothing for the framing and per-event quirks, the calls for the call quirks,
the answer for the rest (agentvcr proxy -api FORMAT -quirk list shows which),
at most -max-held of one answer: past it the answer is cut, as a broken stream
is, with a line that says so. An answer in gzip or deflate is decoded, broken
and encoded again; one in br, zstd or another encoding cannot be broken: it
passes as it came, with a line that says so, and the count is printed at exit.
Other requests, and answers that are not a 200 event stream, pass as they come.

-o FILE records what the agent received, as agentvcr record does (headers
cut, credentials redacted, scanned before it is written); Ctrl-C saves it.
Refused when CI=true. The formats:
` + formatTable() + `
flags:
`

// cmdProxy runs `agentvcr proxy` until SIGINT or SIGTERM.
func cmdProxy(env Env, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Proxy(ctx, env, args)
}

// Proxy runs `agentvcr proxy` until ctx is done, then saves -o's cassette.
func Proxy(ctx context.Context, env Env, args []string) int {
	fl := flag.NewFlagSet("proxy", flag.ContinueOnError)
	fl.SetOutput(env.Stderr)
	fl.Usage = func() {
		fmt.Fprint(env.Stderr, proxyUsage)
		fl.PrintDefaults()
	}
	var upstream, api, quirkName, fault, out, listen string
	var seed int64
	maxHeld := byteSize(chaos.DefaultMaxHeld)
	fl.StringVar(&upstream, "upstream", "", "forward to the provider at base `URL`, e.g. https://api.openai.com/v1")
	fl.StringVar(&api, "api", wire.Default().Name, "the agent's wire `FORMAT`: "+apiNames(", ")+"; -quirk must be one of its quirks")
	fl.StringVar(&quirkName, "quirk", "", "rewrite every streamed answer with quirk `Q` (list: the names of -api's quirks)")
	fl.StringVar(&fault, "fault", "", "break the answers with `FAULT`: KIND[:N][@TURN], as agentvcr serve -fault")
	fl.Int64Var(&seed, "seed", 1, "the quirk's seed for the first answer (`N`+1 for the second...)")
	fl.Var(&maxHeld, "max-held", "cut an answer when the quirk would hold more than `SIZE` of it (bytes, or KiB, MiB, GiB)")
	fl.StringVar(&out, "o", "", "record what the agent received to `FILE` (.yaml)")
	fl.StringVar(&listen, "listen", "127.0.0.1:0", "listen on `ADDR` (loopback unless it says otherwise)")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agentvcr proxy: "+format+"\n", a...)
		return code
	}
	if fl.NArg() > 0 {
		return fail(2, "unexpected argument %q", fl.Arg(0))
	}
	f, err := wire.ByName(api)
	if err != nil {
		return fail(2, "-api: %v", err)
	}
	if quirkName == "list" {
		for _, q := range quirksOf(f.Name) {
			fmt.Fprintf(env.Stdout, "%-40s holds %s\n", q.Name, q.Holds())
		}
		return 0
	}
	c := &chaos.Chaos{Seed: seed, MaxHeld: int(maxHeld)}
	if c.Fault, err = serve.ParseFault(fault); err != nil {
		return fail(2, "-fault: %v", err)
	}
	if quirkName != "" {
		q, err := quirk.Lookup(quirkName)
		switch {
		case errors.Is(err, quirk.ErrUnknown) && !strings.Contains(quirkName, quirk.Separator):
			return fail(2, "unknown -quirk %q: for -api %s pick one of %s", quirkName, f.Name, strings.Join(names(quirksOf(f.Name)), ", "))
		case errors.Is(err, quirk.ErrUnknown):
			return fail(2, "-quirk %s: %v: for -api %s pick parts among %s", quirkName, err, f.Name, strings.Join(names(quirksOf(f.Name)), ", "))
		case err != nil:
			return fail(2, "-quirk %s: %v", quirkName, err)
		case q.API != "" && q.API != f.Name:
			return fail(2, "-quirk %s breaks %s streams, not -api %s's: for -api %s pick one of %s", q.Name, q.API, f.Name, f.Name, strings.Join(names(quirksOf(f.Name)), ", "))
		}
		c.Quirk = &q
	}
	switch {
	case upstream == "":
		return fail(2, "no upstream: pass -upstream URL (the provider's base URL, e.g. %s)", f.ExampleBaseURL)
	case c.Quirk == nil && c.Fault.Kind == "":
		return fail(2, "nothing to break: pass -quirk Q or -fault KIND (agentvcr record is the plain proxy)")
	case env.Getenv("CI") == "true":
		return fail(1, "the chaos proxy is refused when CI=true: it talks to a live provider; run it on your machine")
	}
	transport := env.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	path := ""
	if out != "" {
		path = env.path(out)
	}
	p, err := record.NewProxy(upstream, path, transport, env.Stderr)
	if err != nil {
		return fail(1, "%v", err)
	}
	code := serveProxy(ctx, env, "proxy", p, c.Handler(p), listen, fmt.Sprintf("forwarding to %s; %s", record.ShownURL(upstream), breaking(c)), out)
	for _, line := range unbroken(p, c) {
		fmt.Fprintln(env.Stderr, "agentvcr proxy: "+line)
	}
	return code
}

// unbroken is the summary printed at exit of the answers the proxy could
// not break as asked: the ones whose Content-Encoding it cannot decode, and
// the ones cut at -max-held. A proxy that broke every answer prints none.
func unbroken(p *record.Proxy, c *chaos.Chaos) []string {
	var lines []string
	if n := p.Unrewritten(); n > 0 {
		lines = append(lines, fmt.Sprintf("%d streamed %s passed unbroken: the proxy cannot decode %s Content-Encoding (the lines above name %s)",
			n, plural(n, "answer", "answers"), plural(n, "its", "their"), plural(n, "it", "them")))
	}
	if n := c.Cut(); n > 0 {
		max := byteSize(c.MaxHeld)
		lines = append(lines, fmt.Sprintf("%d %s cut: the quirk would have held more than -max-held %s", n, plural(n, "answer was", "answers were"), max.String()))
	}
	return lines
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quirksOf is what -quirk takes for a format: its own quirks and the
// format-free ones, in quirk.All's order.
func quirksOf(api string) []quirk.Quirk {
	var out []quirk.Quirk
	for _, q := range quirk.All() {
		if q.API == "" || q.API == api {
			out = append(out, q)
		}
	}
	return out
}

func names(qs []quirk.Quirk) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.Name)
	}
	return out
}

// breaking says what the proxy does to the answers.
func breaking(c *chaos.Chaos) string {
	var parts []string
	if c.Quirk != nil {
		parts = append(parts, fmt.Sprintf("quirk %s (seed %d; holds %s)", c.Quirk.Name, c.Seed, c.Quirk.Holds()))
	}
	if c.Fault.Kind != "" {
		parts = append(parts, "fault "+c.Fault.String())
	}
	return "breaking every streamed answer with " + strings.Join(parts, " and ")
}
