//go:build !race

package conform

// slow scales the tests' timeouts (4 under the race detector).
const slow = 1
