//go:build unix

package serve

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the process has used, for
// benchmarks to report per operation: unlike the wall time, it hardly moves
// when other processes load the machine.
func processCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
