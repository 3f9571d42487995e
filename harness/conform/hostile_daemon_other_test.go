//go:build !linux

package conform

// hostileDaemon plays no mode where the daemon modes cannot run.
func hostileDaemon(string) (int, bool) { return 0, false }
