//go:build unix

package tools

import (
	"os"
	"syscall"
)

// openFlags opens without blocking, so a file swapped for a FIFO between the
// stat and the open cannot hang a read.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
