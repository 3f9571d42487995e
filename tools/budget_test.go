package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/internal/racetest"
	"github.com/google/go-cmp/cmp"
)

// sparseWorkspace holds hole.txt: 8 KB of text lines ("line N needle") and
// then a 1 TiB hole, which reads as zeros for as long as the disk serves
// them (the NUL check sees only text).
func sparseWorkspace(t *testing.T) (*Workspace, string, int) {
	t.Helper()
	ws, parent := newWorkspace(t, map[string]string{"small.txt": "needle\n"})
	var b strings.Builder
	n := 0
	for b.Len() < 8000 {
		n++
		fmt.Fprintf(&b, "line %04d needle\n", n)
	}
	p := filepath.Join(ws.Root(), "hole.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 1<<40); err != nil {
		t.Skipf("this file system has no sparse files: %v", err)
	}
	return ws, parent, n
}

func TestSparseFileStopsAtTheBudget(t *testing.T) {
	ws, _, n := sparseWorkspace(t)
	mib := fileByteBudget >> 20

	res := finishes(t, func() Result {
		return Default(ws, EN).Execute(context.Background(), callOf("grep", `{"pattern":"line 000[12] ","glob":"hole.txt"}`))
	})
	want := fmt.Sprintf("hole.txt:1:line 0001 needle\nhole.txt:2:line 0002 needle\n"+
		"(files searched only in part: 1; each file is searched up to %d MiB; the first such file is hole.txt)", mib)
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("grep (-want +got):\n%s", diff)
	}

	res = finishes(t, func() Result {
		return Default(ws, EN).Execute(context.Background(), callOf("grep", `{"pattern":"zzz"}`))
	})
	want = fmt.Sprintf("No lines match \"zzz\" (files searched: 2).\n(files searched only in part: 1; each file is searched up to %d MiB; the first such file is hole.txt)", mib)
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("grep with no hit (-want +got):\n%s", diff)
	}

	off := n - 2
	res = finishes(t, func() Result {
		return Default(ws, ZH).Execute(context.Background(), callOf("read_file", fmt.Sprintf(`{"path":"hole.txt","offset":%d}`, off)))
	})
	want = fmt.Sprintf("hole.txt（第 %d–%d 行，至少 %d 行，文件太大没有数完）\n%d\tline %04d needle\n%d\tline %04d needle\n%d\tline %04d needle\n（读取 %d MiB 后停止，这是一次读取的上限；第 %d 行之后的内容没有读到）",
		off, n, n, off, off, off+1, off+1, n, n, mib, n)
	if diff := cmp.Diff(want, res.Content); diff != "" || res.IsError {
		t.Errorf("read_file up to the hole (-want +got):\n%s", diff)
	}

	res = finishes(t, func() Result {
		return Default(ws, EN).Execute(context.Background(), callOf("read_file", fmt.Sprintf(`{"path":"hole.txt","offset":%d}`, n+2)))
	})
	want = fmt.Sprintf("read_file: offset %d was not reached: reading hole.txt stopped after %d MiB, the limit of one read, after line %d", n+2, mib, n)
	if diff := cmp.Diff(want, res.Content); diff != "" || !res.IsError {
		t.Errorf("read_file past the hole (-want +got):\n%s", diff)
	}
}

// TestPerCallBudget: once grepByteBudget bytes are read no further file is
// started, and the note names the last file searched.
func TestPerCallBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 10 {
		files[fmt.Sprintf("f%d.txt", i)] = strings.Repeat("x", 1000) + "\n"
	}
	ws, _ := newWorkspace(t, files)
	old := grepByteBudget
	grepByteBudget = 3000
	defer func() { grepByteBudget = old }()
	for _, workers := range []int{1, 8} {
		got, err := grepper{workers: workers}.run(context.Background(), ws, EN.texts(), grepArgs{Pattern: "y"})
		if err != nil {
			t.Fatal(err)
		}
		want := "No lines match \"y\" (files searched: 3).\n(stopped after reading 0 MiB in all, the limit of one search; files after f2.txt were not searched: narrow the files with the glob parameter)"
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d workers (-want +got):\n%s", workers, diff)
		}
	}
}

// TestCanceledContextStopsEveryTool: a context canceled before the call, and
// one canceled while a tool reads a 1 TiB sparse file with the budgets
// raised past it, both end the call with the canceled failure.
func TestCanceledContextStopsEveryTool(t *testing.T) {
	ws, _, _ := sparseWorkspace(t)
	r := Default(ws, EN)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	calls := []Call{
		{Name: "grep", Arguments: `{"pattern":"zzz"}`},
		{Name: "read_file", Arguments: `{"path":"hole.txt","offset":1000000}`},
		{Name: "glob", Arguments: `{"pattern":"**"}`},
	}
	for _, c := range calls {
		res := r.Execute(canceled, c)
		if want := c.Name + ": canceled"; res.Content != want || !res.IsError {
			t.Errorf("%s with a canceled context: %q, want %q", c.Name, res.Content, want)
		}
	}

	oldFile, oldCall := fileByteBudget, grepByteBudget
	fileByteBudget, grepByteBudget = 1<<41, 1<<41
	defer func() { fileByteBudget, grepByteBudget = oldFile, oldCall }()
	for _, c := range calls[:2] {
		// long enough for the call to reach the hole, so that the
		// cancellation lands inside the read (without the read's check,
		// the call reads terabytes and finishes fails)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond*racetest.Slow)
		res := finishes(t, func() Result { return r.Execute(ctx, c) })
		cancel()
		if want := c.Name + ": canceled"; res.Content != want || !res.IsError {
			t.Errorf("%s canceled while reading the hole: %q, want %q", c.Name, res.Content, want)
		}
	}
}

func callOf(name, args string) Call { return Call{Name: name, Arguments: args} }
