// Package racetest says how the tests that wait on servers, agents and
// timers are run, with the race detector or without it. Only tests import
// it.
//
// Slow is 4 when the test binary is built with -race and 1 otherwise (Race
// says which). A test scales what it waits for by it (an idle timeout, an
// agent's patience, a case's -timeout), so that its waits stay short in
// `go test ./...` and a loaded CI machine running `go test -race` does not
// take a slow start for the failure the test looks for.
//
// RunWaiting, called from a package's TestMain, runs more of its parallel
// tests at once than there are cores, for a package whose tests spend
// most of their time waiting: go test's default of one per core leaves
// the cores idle while they wait. It changes nothing under -race or when
// -parallel is given.
package racetest
