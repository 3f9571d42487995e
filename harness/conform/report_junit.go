package conform

import (
	"encoding/xml"
	"fmt"
	"io"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one testsuite per tier, one
// testcase per case. A failure the baseline lists is reported as skipped
// ("expected failure"), so CI systems stay green on known failures.
func WriteJUnit(w io.Writer, results []Result) error {
	top := junitSuites{Name: "agentvcr conform"}
	index := map[Tier]int{}
	var secs = map[Tier]float64{}
	for _, r := range results {
		i, ok := index[r.Case.Tier]
		if !ok {
			i = len(top.Suites)
			index[r.Case.Tier] = i
			top.Suites = append(top.Suites, junitSuite{Name: string(r.Case.Tier)})
		}
		s := &top.Suites[i]
		tc := junitCase{Name: r.Case.ID, ClassName: "conform." + string(r.Case.Tier),
			Time: fmt.Sprintf("%.3f", r.Duration.Seconds()), SystemOut: string(r.Status) + ": " + r.Details}
		switch {
		case r.Status == Failure && r.Expected:
			tc.Skipped = &junitMessage{Message: "expected failure (baseline): " + r.Details}
			s.Skipped++
		case r.Status == Failure:
			tc.Failure = &junitMessage{Message: r.Details, Text: r.Diff}
			s.Failures++
		case r.Status == Skipped:
			tc.Skipped = &junitMessage{Message: r.Details}
			s.Skipped++
		}
		s.Tests++
		secs[r.Case.Tier] += r.Duration.Seconds()
		s.Cases = append(s.Cases, tc)
	}
	for i := range top.Suites {
		s := &top.Suites[i]
		s.Time = fmt.Sprintf("%.3f", secs[Tier(s.Name)])
		top.Tests += s.Tests
		top.Failures += s.Failures
		top.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(top); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
