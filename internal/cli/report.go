package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentvcr/agentvcr/harness/conform"
)

const reportUsage = `usage: agentvcr report merge [flags] REPORT.json...
       agentvcr report md REPORT.json
       agentvcr report html [-out DIR] REPORT.json...

merge joins the JSON reports (conform -json) of one run's shards
(conform -shard I/N, every shard once) into one report: the table on
stdout, and -json, -junit and -md files. It refuses reports of different
formats, agents or cassettes, a case reported twice and a missing shard.
The baseline is applied once, to the whole run: the marks of each shard's
own -baseline are dropped, and an entry that now passes in any shard fails
the merge.

md writes one JSON report as a Markdown table (case, verdict, the first
difference) on stdout, as is: for a CI job's summary.

html writes the JSON reports (one, or a run's shards, joined as merge
joins them) as one self-contained HTML page on stdout: a summary, filters
by verdict and tier, and per case its verdict, details and first
difference. With -out DIR, the -out folder of the same run (every shard's
-out may be the same folder), the page also shows each case's stream as
served against the clean one, the requests the agent sent and the ends of
its stdout and stderr.

Both read only what conform -json writes: a report with a field out of its
range (a status of no verdict, a negative count, a shard that is not I/N,
a case the catalog does not have, a newline in the agent's name) is
refused with one line naming the file and the field.

Exit status: 0 when every case passes or fails as the baseline says; 1 on a
failure the baseline does not list, or a baseline entry that now passes;
2 on a usage error or reports that cannot be merged.

merge's flags:
`

// cmdReport runs `agentvcr report`.
func cmdReport(env Env, args []string) int {
	fs := flag.NewFlagSet("report merge", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, reportUsage)
		fs.PrintDefaults()
	}
	var basel, jsonOut, junitOut, mdOut, htmlOut string
	fs.StringVar(&basel, "baseline", "", "expected failures of the whole run: a `FILE` of case ids, one per line")
	fs.StringVar(&jsonOut, "json", "", "write the merged checks as JSON to `FILE`")
	fs.StringVar(&junitOut, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&mdOut, "md", "", "write a Markdown table (case, verdict, first difference) to `FILE`")
	fs.StringVar(&htmlOut, "html", "", "write the merged run as one self-contained HTML page to `FILE` (report html adds -out's data)")
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agentvcr report: "+format+"\n", a...)
		return 2
	}
	if len(args) == 0 {
		fs.Usage()
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fs.Usage()
		return 0
	case "merge", "md", "html":
	default:
		return usage("unknown subcommand %q: give merge, md or html (agentvcr report -h)", args[0])
	}
	sub := args[0]
	var outDir string
	if sub != "merge" {
		fs = flag.NewFlagSet("report "+sub, flag.ContinueOnError)
		fs.SetOutput(env.Stderr)
		fs.Usage = func() { fmt.Fprint(env.Stderr, reportUsage) }
		if sub == "html" {
			fs.StringVar(&outDir, "out", "", "the -out `DIR` of the same run")
		}
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var reports []conform.Report
	for _, name := range fs.Args() {
		data, err := os.ReadFile(env.path(name))
		if err != nil {
			return usage("%v", err)
		}
		r, err := conform.ReadReport(name, data)
		if err != nil {
			return usage("%v", err)
		}
		reports = append(reports, r)
	}
	if sub == "md" {
		if len(reports) != 1 {
			return usage("md writes one report: give one JSON file (agentvcr report merge -md joins shards)")
		}
		run, results, err := reports[0].Results()
		if err != nil {
			return usage("%v", err)
		}
		if err := conform.WriteMarkdown(env.Stdout, run, results); err != nil {
			return usage("%v", err)
		}
		return 0
	}
	if len(reports) == 0 {
		return usage("give the JSON reports (conform -json) to read")
	}
	var run conform.RunInfo
	var results []conform.Result
	var err error
	if sub == "html" && len(reports) == 1 {
		run, results, err = reports[0].Results()
	} else {
		run, results, err = conform.MergeReports(reports)
	}
	if err != nil {
		return usage("%v", err)
	}
	if sub == "html" {
		if outDir != "" {
			if err := conform.ReadOut(env.path(outDir), results); err != nil {
				return usage("-out: %v", err)
			}
		}
		if err := conform.WriteHTML(env.Stdout, run, results); err != nil {
			return usage("%v", err)
		}
		return 0
	}
	baseline := conform.Baseline{}
	if basel != "" {
		format, _ := conform.FormatByName(run.API) // MergeReports knows it
		known := format.Cases()
		if run.Cassette != "" {
			known = conform.RecordedCases(format)
		}
		if baseline, err = conform.ReadBaseline(env.path(basel), known); err != nil {
			return usage("%v", err)
		}
	}
	unexpected, stale := baseline.Judge(results)
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{
		{jsonOut, func(w io.Writer) error { return conform.WriteRunJSON(w, run, results) }},
		{junitOut, func(w io.Writer) error { return conform.WriteJUnit(w, results) }},
		{mdOut, func(w io.Writer) error { return conform.WriteMarkdown(w, run, results) }},
		{htmlOut, func(w io.Writer) error { return conform.WriteHTML(w, run, results) }},
	} {
		f, err := openReport(env, "", out.path)
		if err == nil {
			err = writeReport(f, out.write)
			if f != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "agentvcr report: %v\n", err)
			return 1
		}
	}
	conform.WriteTable(env.Stdout, results)
	return verdictCode(env, "agentvcr report merge", unexpected, stale, basel)
}
