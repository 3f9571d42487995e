package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentvcr/agentvcr/harness/record"
)

// recordUsage is record's help; the formats come from package wire.
var recordUsage = `usage: agentvcr record -upstream URL -o FILE [-listen ADDR]

A recording proxy for any agent. Point the agent's base URL at the URL on the
first stdout line (` + baseURLLine("http://127.0.0.1:PORT") + `); each request is
forwarded to -upstream with the agent's own headers and key, its answer is
streamed back as it arrives, and the exchange is recorded. Ctrl-C saves the
cassette to -o: headers cut to Accept and Content-Type, every credential the
agent sent (auth headers by any common name, a ?key= or ?token=, the user:pw@
of -upstream) replaced by REDACTED, the file scanned for them in memory before
it is written over FILE. Credentials are never printed. Refused when CI=true.

An agent of another format takes the root of that URL plus its format's base
path (the root itself for Anthropic Messages, whose path starts with /v1;
give -upstream with /v1 then, e.g. https://api.anthropic.com/v1). The
formats:
` + formatTable() + `A recording in any format replays under agentvcr conform -api FORMAT
-cassette FILE.

flags:
`

// shutdownGrace is how long Ctrl-C lets streams in progress finish.
const shutdownGrace = 5 * time.Second

// cmdRecord runs `agentvcr record` until SIGINT or SIGTERM.
func cmdRecord(env Env, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Record(ctx, env, args)
}

// Record runs `agentvcr record` until ctx is done, then saves.
func Record(ctx context.Context, env Env, args []string) int {
	fl := flag.NewFlagSet("record", flag.ContinueOnError)
	fl.SetOutput(env.Stderr)
	fl.Usage = func() {
		fmt.Fprint(env.Stderr, recordUsage)
		fl.PrintDefaults()
	}
	var upstream, out, listen string
	fl.StringVar(&upstream, "upstream", "", "forward to the gateway at base `URL`, e.g. https://api.openai.com/v1")
	fl.StringVar(&out, "o", "", "save the cassette to `FILE` (.yaml)")
	fl.StringVar(&listen, "listen", "127.0.0.1:0", "listen on `ADDR` (loopback unless it says otherwise)")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agentvcr record: "+format+"\n", a...)
		return code
	}
	switch {
	case fl.NArg() > 0:
		return fail(2, "unexpected argument %q", fl.Arg(0))
	case upstream == "":
		return fail(2, "no upstream: pass -upstream URL (the gateway's base URL, e.g. https://api.openai.com/v1)")
	case out == "":
		return fail(2, "no output: pass -o FILE.yaml")
	case env.Getenv("CI") == "true":
		return fail(1, "recording is refused when CI=true: record on your machine and commit the cassette")
	}
	transport := env.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	proxy, err := record.NewProxy(upstream, env.path(out), transport, env.Stderr)
	if err != nil {
		return fail(1, "%v", err)
	}
	return serveProxy(ctx, env, "record", proxy, proxy, listen, fmt.Sprintf("forwarding to %s; Ctrl-C saves %s", record.ShownURL(upstream), out), out)
}
