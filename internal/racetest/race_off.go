//go:build !race

package racetest

// Slow scales the tests' timeouts (4 under the race detector).
const Slow = 1
