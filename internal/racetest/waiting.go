package racetest

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

// WaitingParallel is how many parallel tests RunWaiting lets run at once,
// per core: a test of a package that waits (on an agent process, a
// server, a stall timeout) uses a core for a small part of its time.
const WaitingParallel = 4

// RunWaiting runs the tests of a package whose tests mostly wait, with
// WaitingParallel times GOMAXPROCS parallel tests at once where go test's
// default is GOMAXPROCS: the default suits tests that compute, and left
// harness/conform's 45 parallel tests two at a time, waiting, on a 2-core
// machine (6.3 s of wall for 1.4 s of CPU; 2.3 s at 8). A -parallel given
// on the command line stands, and under the race detector the default
// stands too: there every agent is several times slower, and CI's -race
// run is no place to trade a margin for speed. It returns m.Run()'s code.
func RunWaiting(m *testing.M) int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given && !Race {
		flag.Set("test.parallel", strconv.Itoa(WaitingParallel*runtime.GOMAXPROCS(0)))
	}
	return m.Run()
}
