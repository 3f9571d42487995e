//go:build !linux

package conform

import "os/exec"

// tieToConform does nothing where there is no parent-death signal: an
// agent outlives a conform that is killed (an interrupt still stops it).
func tieToConform(*exec.Cmd) {}

// lockThread does nothing: no parent-death signal depends on the thread.
func lockThread() (unlock func()) { return func() {} }
