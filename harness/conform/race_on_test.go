//go:build race

package conform

// slow scales the tests' timeouts: the race detector makes every agent
// process several times slower to start and to run.
const slow = 4
