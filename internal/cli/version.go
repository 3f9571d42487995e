package cli

import (
	"flag"
	"fmt"
	"runtime/debug"
	"strings"
)

// cmdVersion runs `agentvcr version`: which agentvcr this is, from the
// build information the Go toolchain stamps into every binary.
func cmdVersion(env Env, args []string) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, "usage: agentvcr version\n\nPrints the module version agentvcr was built as, the commit it was built\nfrom (with \"modified\" when the checkout had uncommitted changes) and the\nGo version that built it.\n")
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "agentvcr version: takes no arguments, got %q\n", fs.Arg(0))
		return 2
	}
	info, ok := debug.ReadBuildInfo()
	fmt.Fprint(env.Stdout, versionText(info, ok))
	return 0
}

// versionText describes a build: `go install ...@v1.2.0` stamps the module
// version and no commit; `go build` in a checkout stamps a version made from
// the commit (or "(devel)") and the vcs.* settings; a test binary has
// neither, and says so.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "agentvcr (unknown): this binary carries no build information\n"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "agentvcr %s\n", version)
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		line := "commit " + rev
		if t := settings["vcs.time"]; t != "" {
			line += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			line += ", modified: built with uncommitted changes"
		}
		b.WriteString(line + "\n")
	} else {
		b.WriteString("commit unknown: built without version control information\n")
	}
	if info.GoVersion != "" {
		fmt.Fprintf(&b, "built with %s\n", info.GoVersion)
	}
	return b.String()
}
