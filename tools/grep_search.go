package tools

import (
	"bytes"
	"context"
	"io"
	"os"
	"path"
	"regexp"
	"strconv"
	"sync"
)

// grepBufSize is the buffer one searcher reads a file into: more than
// grepLineBytes, so a line that fills it without a newline is longer than
// what grep searches of a line.
const grepBufSize = grepLineBytes + 64<<10

// searcher searches files one at a time; each worker of a search owns one.
type searcher struct {
	re     *regexp.Regexp
	lits   literalFinder // no literals: every line is matched
	buf    []byte
	onOpen func(rel string)

	folders folders // where files are opened
}

// fileResult is what searching one file found.
type fileResult struct {
	rel      string
	hits     []string // at most the hits wanted plus one (which says there are more)
	searched bool     // a text file (binary files and files that cannot be opened are not)
	read     int64    // bytes read
	cut      bool     // the per-file budget stopped the search before the end
	err      error    // the context's error when it ended the search
}

// bufPool keeps searchers' buffers from one search to the next.
var bufPool = sync.Pool{New: func() any { return new([grepBufSize]byte) }}

func newSearcher(re *regexp.Regexp, lits []literal, onOpen func(string)) *searcher {
	return &searcher{re: re, lits: newLiteralFinder(lits), buf: bufPool.Get().(*[grepBufSize]byte)[:], onOpen: onOpen}
}

// close releases the folders and the buffer.
func (s *searcher) close() {
	s.folders.close()
	if s.buf != nil {
		bufPool.Put((*[grepBufSize]byte)(s.buf))
		s.buf = nil
	}
}

// file searches one file for up to want+1 hits. It reads the file a buffer at
// a time, searches the complete lines of each buffer as one block, checks
// the context between buffers and stops after fileByteBudget bytes. A file
// whose first binarySniff bytes hold a NUL is binary and skipped.
func (s *searcher) file(ctx context.Context, root *os.Root, rel string, want int) (r fileResult) {
	r.rel = rel
	if s.onOpen != nil {
		s.onOpen(rel)
	}
	f, size, err := s.folders.openFile(root, rel) // a positive size read ends the file without a last empty read
	if err != nil {
		return r
	}
	defer f.Close()
	shown := showPath(rel)
	line := 1         // number of the line that starts the buffer
	carry := 0        // bytes of an unfinished line kept at the buffer's start
	longLine := false // the buffer starts inside a line whose head was searched
	for {
		if err := ctx.Err(); err != nil {
			r.err = err
			return r
		}
		room := s.buf[carry:]
		last := false
		if left := size - r.read; size > 0 && left <= int64(len(room)) {
			room, last = room[:left], true
		}
		n, err := io.ReadFull(f, room)
		r.read += int64(n)
		data := s.buf[:carry+n]
		end := last || err != nil // io.EOF, io.ErrUnexpectedEOF or a read error: no more
		if !r.searched {
			if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
				return fileResult{rel: rel, read: r.read}
			}
			r.searched = true
		}
		if !end && r.read >= fileByteBudget {
			end, r.cut = true, true
		}
		stop := len(data)
		if !end {
			stop = bytes.LastIndexByte(data, '\n') + 1
		}
		if stop == 0 && !end { // a whole buffer without a newline: a very long line
			if !longLine {
				if s.block(data[:grepLineBytes], shown, line, want, &r) {
					return r
				}
				longLine = true
			}
			carry = 0
			continue
		}
		from := 0
		if longLine { // skip the rest of the long line
			nl := bytes.IndexByte(data[:stop], '\n')
			if nl < 0 {
				return r
			}
			from, line, longLine = nl+1, line+1, false
		}
		if s.block(data[from:stop], shown, line, want, &r) || end {
			return r
		}
		line += bytes.Count(data[from:stop], []byte{'\n'})
		carry = copy(s.buf, data[stop:])
	}
}

// block searches complete lines (the last may lack its newline at the end of
// a file) whose first is number line, appending hits to r. It reports
// whether r holds more than want hits. Each line is matched on its first
// grepLineBytes bytes, a trailing "\r" removed, as if read line by line; the
// literal prefilter only skips lines that cannot match.
func (s *searcher) block(data []byte, shown string, line, want int, r *fileResult) bool {
	if len(s.lits.lits) > 0 {
		s.lits.reset()
	}
	for pos := 0; pos < len(data); {
		start := pos
		if len(s.lits.lits) > 0 {
			i := s.lits.find(data, pos)
			if i < 0 {
				return false
			}
			start = bytes.LastIndexByte(data[pos:i], '\n') + 1 + pos
			line += bytes.Count(data[pos:start], []byte{'\n'})
		}
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		text := data[start:end]
		if len(text) > grepLineBytes {
			text = text[:grepLineBytes]
		}
		text = bytes.TrimSuffix(text, []byte{'\r'})
		if loc := s.re.FindIndex(text); loc != nil {
			r.hits = append(r.hits, shown+":"+strconv.Itoa(line)+":"+around(text, loc[0], loc[1], grepLineChars))
			if len(r.hits) > want {
				return true
			}
		}
		pos, line = end+1, line+1
	}
	return false
}

// splitRel splits a root-relative file path into its folder ("." for the
// root) and its name.
func splitRel(rel string) (dir, name string) {
	return path.Dir(rel), path.Base(rel)
}
