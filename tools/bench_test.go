package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTextFile writes size bytes of 64-byte text lines, one 1 MiB block at a
// time, so memory stays flat while generating a 1 GiB file.
func writeTextFile(b *testing.B, path string, size int) {
	b.Helper()
	line := []byte(strings.Repeat("x", 52) + " some code;\n") // 64 bytes
	block := bytes.Repeat(line, (1<<20)/len(line))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for written := 0; written < size; written += len(block) {
		if _, err := f.Write(block); err != nil {
			b.Fatal(err)
		}
	}
}

func benchReadFile(b *testing.B, size int) {
	ws, _ := newWorkspace(b, nil)
	writeTextFile(b, filepath.Join(ws.Root(), "big.txt"), size)
	r := Default(ws, ZH)
	call := Call{Name: "read_file", Arguments: `{"path":"big.txt"}`}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res := r.Execute(context.Background(), call); res.IsError {
			b.Fatal(res.Content)
		}
	}
}

// The first 400 lines; the header's total line count streams the whole file.
func BenchmarkReadFile1MiB(b *testing.B) { benchReadFile(b, 1<<20) }
func BenchmarkReadFile1GiB(b *testing.B) { benchReadFile(b, 1<<30) }

// benchTree writes 20,000 small files in 200 folders (plus a node_modules
// that walks skip).
func benchTree(b *testing.B) *Workspace {
	b.Helper()
	ws, _ := newWorkspace(b, nil)
	body := strings.Repeat("const value = compute(input);\n", 30)
	for d := 0; d < 200; d++ {
		dir := filepath.Join(ws.Root(), "src", fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 100; f++ {
			name := fmt.Sprintf("file%03d.js", f)
			if f%2 == 1 {
				name = fmt.Sprintf("file%03d.ts", f)
			}
			content := body
			if d == 199 && f == 99 {
				content += "RARE_MARKER\n"
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return ws
}

func benchCall(b *testing.B, ws *Workspace, name, args string) {
	r := Default(ws, ZH)
	call := Call{Name: name, Arguments: args}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res := r.Execute(context.Background(), call); res.IsError {
			b.Fatal(res.Content)
		}
	}
}

func BenchmarkTree20k(b *testing.B) {
	ws := benchTree(b)
	b.Run("glob_all_js", func(b *testing.B) { benchCall(b, ws, "glob", `{"pattern":"**/*.js"}`) })
	b.Run("glob_no_match", func(b *testing.B) { benchCall(b, ws, "glob", `{"pattern":"**/*.py"}`) })
	b.Run("grep_rare_literal_full_scan", func(b *testing.B) { benchCall(b, ws, "grep", `{"pattern":"RARE_MARKER"}`) })
	b.Run("grep_regexp_inner_literal_full_scan", func(b *testing.B) { benchCall(b, ws, "grep", `{"pattern":"[A-Z]\\w+_MARKER"}`) })
	b.Run("grep_no_literal_full_scan", func(b *testing.B) { benchCall(b, ws, "grep", `{"pattern":"[A-Z]{4}_M"}`) })
	b.Run("grep_common_stops_at_50", func(b *testing.B) { benchCall(b, ws, "grep", `{"pattern":"compute"}`) })
}

// BenchmarkGrepWorkers: the same full scans with one worker and with the
// default (one per CPU, at least 2).
func BenchmarkGrepWorkers(b *testing.B) {
	ws := benchTree(b)
	for _, workers := range []int{1, 0} {
		for _, pattern := range []string{"RARE_MARKER", `[A-Z]\w+_MARKER`} {
			b.Run(fmt.Sprintf("workers=%d/%s", workers, pattern), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := (grepper{workers: workers}).run(context.Background(), ws, EN.texts(), grepArgs{Pattern: pattern}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
