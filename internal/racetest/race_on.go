//go:build race

package racetest

// Slow scales the tests' timeouts: the race detector makes every agent
// process several times slower to start and to run.
const Slow = 4

// Race reports that the test binary was built with -race.
const Race = true
