//go:build !unix

package tools

import "os"

const openFlags = os.O_RDONLY
