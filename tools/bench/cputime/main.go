//go:build unix

// Command cputime runs a command and prints, to standard error, what it
// cost: wall, user and system seconds to the microsecond, and its peak
// resident memory in KiB (the fields of `/usr/bin/time -f "%e %U %S %M"`,
// which rounds to 10 ms, too coarse for a 50 ms run):
//
//	go run ./tools/bench/cputime agentvcr merge -api chat /tmp/chat.sse >/dev/null
//	0.071203 0.052000 0.016000 18944
//
// The command's output goes to cputime's own; its exit status is cputime's.
// tools/bench/merge_vs_scan.sh times every run through it.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cputime COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "cputime:", err)
		os.Exit(1)
	}
	st := cmd.ProcessState
	rss := int64(0)
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) // KiB on Linux
	}
	fmt.Fprintf(os.Stderr, "%.6f %.6f %.6f %d\n", wall.Seconds(), st.UserTime().Seconds(), st.SystemTime().Seconds(), rss)
	os.Exit(st.ExitCode())
}
