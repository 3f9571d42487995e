//go:build !linux

package conform

// becomeSubreaper does nothing where there is no PR_SET_CHILD_SUBREAPER.
func becomeSubreaper() {}

// sweep does nothing where there is no /proc to find what an agent left:
// the kill at -timeout reaches its process group only.
func sweep(mark string, pgid int) {}
