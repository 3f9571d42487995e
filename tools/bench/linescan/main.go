// Command linescan is the floor the mergers are measured against: it reads a
// file (or standard input) and finds its `data:` lines and nothing more. It
// reads 64 KiB at a time, as the SSE reader does, finds each line end with
// bytes.IndexByte and counts the lines that begin with "data:" and their
// bytes, which it prints so that the work cannot be skipped:
//
//	go run ./tools/bench/linescan /tmp/chat.sse
//	linescan: 67117241 bytes, 135790 data lines, 66845643 data bytes
//
// tools/bench/merge_vs_scan.sh times it beside `agentvcr merge` on the same
// file.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

func main() {
	in := os.Stdin
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: linescan [FILE]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "linescan:", err)
			os.Exit(1)
		}
		defer f.Close()
		in = f
	}
	total, lines, data, err := scan(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "linescan:", err)
		os.Exit(1)
	}
	fmt.Printf("linescan: %d bytes, %d data lines, %d data bytes\n", total, lines, data)
}

// scan counts r's bytes, the lines that begin with "data:" and those lines'
// bytes. A line longer than the buffer is carried to the next read.
func scan(r io.Reader) (total, lines, data int64, err error) {
	buf := make([]byte, 64<<10)
	start, end := 0, 0
	prefix := []byte("data:")
	for {
		n, rerr := r.Read(buf[end:])
		end += n
		total += int64(n)
		for {
			i := bytes.IndexByte(buf[start:end], '\n')
			if i < 0 {
				break
			}
			if line := buf[start : start+i]; bytes.HasPrefix(line, prefix) {
				lines++
				data += int64(len(line))
			}
			start += i + 1
		}
		if rerr == io.EOF {
			if line := buf[start:end]; bytes.HasPrefix(line, prefix) {
				lines++
				data += int64(len(line))
			}
			return total, lines, data, nil
		}
		if rerr != nil {
			return total, lines, data, rerr
		}
		if start == 0 && end == len(buf) {
			buf = append(buf, make([]byte, len(buf))...) // a line longer than the buffer
		} else if end == len(buf) {
			end = copy(buf, buf[start:end])
			start = 0
		}
	}
}
