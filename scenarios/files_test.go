package scenarios

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdGenfile writes a file a txtar cannot hold well:
//
//	genfile [-kind text|oneline|binary|badutf8] PATH N
//
// text: N runes in lines of 80 (a CJK rune every 10th), oneline: N runes and
// no newline, binary: N bytes with NULs, badutf8: N lines holding invalid
// UTF-8 bytes. The content depends only on the kind and N.
func cmdGenfile(ts *testscript.TestScript, neg bool, args []string) error {
	fs := flag.NewFlagSet("genfile", flag.ContinueOnError)
	kind := fs.String("kind", "text", "text, oneline, binary or badutf8")
	if neg || fs.Parse(args) != nil || fs.NArg() != 2 {
		return errUsage
	}
	n, err := strconv.Atoi(fs.Arg(1))
	if err != nil || n < 0 {
		return fmt.Errorf("N must be a count, got %q", fs.Arg(1))
	}
	var b bytes.Buffer
	switch *kind {
	case "text", "oneline":
		b.Grow(n + n/10*2) // every tenth rune is 中, three bytes
		for i := range n {
			switch {
			case *kind == "text" && i%80 == 79:
				b.WriteByte('\n')
			case i%10 == 9:
				b.WriteRune('中')
			default:
				b.WriteByte(byte('a' + i%26))
			}
		}
	case "binary":
		b.Grow(n)
		for i := range n {
			b.WriteByte(byte(i % 7)) // NUL every seventh byte
		}
	case "badutf8":
		for i := range n {
			b.WriteString("line " + strconv.Itoa(i+1) + " \xff\xfe ok\n")
		}
	default:
		return fmt.Errorf("unknown kind %q", *kind)
	}
	p := ts.MkAbs(fs.Arg(0))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b.Bytes(), 0o644)
}

// cmdMkfifo makes a named pipe with no writer: mkfifo PATH.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) error {
	if neg || len(args) != 1 {
		return errUsage
	}
	return syscall.Mkfifo(ts.MkAbs(args[0]), 0o644)
}
