package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

type globArgs struct {
	Pattern string `json:"pattern"`
	Limit   int    `json:"limit"`
}

// globTool lists files by path pattern. Its description and parameter
// descriptions are globDesc, globPatternDesc and globLimitDescF in
// texts_zh.go / texts_en.go, limits filled in from limits.go.
func globTool(lang Lang) Tool {
	t := lang.texts()
	return Tool{
		Name:        "glob",
		Description: t.globDesc,
		Parameters: objectSchema([]string{"pattern"},
			param{"pattern", "string", t.globPatternDesc, `"minLength":1`},
			param{"limit", "integer", fmt.Sprintf(t.globLimitDescF, globMaxPaths, globMaxPaths), fmt.Sprintf(`"minimum":1,"maximum":%d`, globMaxPaths)},
		),
		ReadOnly: true,
		Run: func(ctx context.Context, ws *Workspace, raw json.RawMessage) (string, error) {
			a := globArgs{Limit: globMaxPaths}
			if err := json.Unmarshal(raw, &a); err != nil {
				return "", err
			}
			return glob(ctx, ws, t, a)
		},
	}
}

// glob returns the matching root-relative paths, sorted, one per line, at
// most a.Limit of them and a line saying how many more matched. With no
// match it says how many files the workspace holds.
func glob(ctx context.Context, ws *Workspace, t *catalog, a globArgs) (string, error) {
	g, err := compileGlob(ws, t, a.Pattern)
	if err != nil {
		return "", err
	}
	root, err := os.OpenRoot(ws.Root())
	if err != nil {
		return "", err
	}
	defer root.Close()
	fsys := newRootFS(root)
	defer fsys.close()
	return globIn(ctx, fsys, g, t, a)
}

// globIn walks fsys once. The walk starts at the pattern's folder and skips
// the folders the pattern cannot reach; it counts the files it passes and
// notes the folders it skipped. Only when nothing matched does it walk what
// it has not seen yet (the skipped folders, and the tree outside the
// pattern's folder) to count the workspace's files: no folder is read twice.
func globIn(ctx context.Context, fsys fs.FS, g globPattern, t *catalog, a globArgs) (string, error) {
	var shown, skipped []string
	matched, seen := 0, 0
	enter := func(dir string) bool {
		if g.mayContain(g.rel(dir)) {
			return true
		}
		skipped = append(skipped, dir)
		return false
	}
	err := walkFiles(ctx, fsys, g.dir, enter, func(p string) error {
		seen++
		if g.match(g.rel(p)) {
			matched++
			if len(shown) < a.Limit {
				shown = append(shown, showPath(p))
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if matched == 0 {
		total, err := countRest(ctx, fsys, g.dir, skipped, seen)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf(t.globEmptyF, a.Pattern, total), nil
	}
	out := strings.Join(shown, "\n")
	if more := matched - len(shown); more > 0 {
		out += "\n" + fmt.Sprintf(t.globMoreF, more)
	}
	return out, nil
}

// countRest counts the workspace's files (skipDirs left out) given that a
// walk of dir saw seen files and skipped the folders in skipped: it walks
// only those folders and the tree outside dir. A dir inside a skipped
// folder (a pattern may name node_modules) is not part of the count, so
// then the whole tree is walked.
func countRest(ctx context.Context, fsys fs.FS, dir string, skipped []string, seen int) (int, error) {
	total := 0
	count := func(string) error { total++; return nil }
	all := func(string) bool { return true }
	if dir != "." && slices.ContainsFunc(strings.Split(dir, "/"), func(c string) bool { return slices.Contains(skipDirs, c) }) {
		err := walkFiles(ctx, fsys, ".", all, count)
		return total, err
	}
	total = seen
	for _, d := range skipped {
		if err := walkFiles(ctx, fsys, d, all, count); err != nil {
			return 0, err
		}
	}
	if dir != "." {
		outside := func(d string) bool { return d != dir }
		if err := walkFiles(ctx, fsys, ".", outside, count); err != nil {
			return 0, err
		}
	}
	return total, nil
}
