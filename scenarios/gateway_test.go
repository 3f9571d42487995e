package scenarios

import (
	"flag"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// cmdGateway starts the scripted gateway on loopback for the rest of the
// script and points OPENAI_BASE_URL at it:
//
//	gateway [-key KEY] [-lang zh|en]
//
// With -key, requests must carry that key (a wrong one gets a 401) and
// OPENAI_API_KEY is set to it. The script's models are the base script
// names (demo, demo_bad_args, ...), the echo scripts (thought_signature,
// reasoning_echo) and the HTTP error scripts (http_429, ...).
func cmdGateway(ts *testscript.TestScript, neg bool, args []string) error {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	key := fs.String("key", "", "the key the gateway requires")
	lang := fs.String("lang", "zh", "the locale of the scripts")
	if neg || fs.Parse(args) != nil || fs.NArg() != 0 {
		return errUsage
	}
	l, err := tools.ParseLang(*lang)
	if err != nil {
		return err
	}
	scripts := append(append(demo.Scripts(l), demo.EchoScripts(l)...), gateway.ErrorScripts()...)
	url, stop := gateway.New(*key, scripts...).Start()
	ts.Defer(stop)
	ts.Setenv("OPENAI_BASE_URL", url)
	if *key != "" {
		ts.Setenv("OPENAI_API_KEY", *key)
	}
	return nil
}
