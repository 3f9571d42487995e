//go:build !race

package racetest

// Slow scales the tests' timeouts (4 under the race detector).
const Slow = 1

// Race reports that the test binary was built with -race.
const Race = false
