// Package racetest says how much slower the race detector makes a test's
// code, for the tests that wait on servers, agents and timers: Slow is 4
// when the test binary is built with -race and 1 otherwise. A test scales
// what it waits for by it (an idle timeout, an agent's patience, a case's
// -timeout), so that its waits stay short in `go test ./...` and a loaded
// CI machine running `go test -race` does not take a slow start for the
// failure the test looks for. Only tests import it.
package racetest
