package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type globArgs struct {
	Pattern string `json:"pattern"`
	Limit   int    `json:"limit"`
}

// globTool lists files by path pattern. Its description and parameter
// descriptions are globDesc, globPatternDesc and globLimitDesc in
// texts_zh.go / texts_en.go.
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
	fsys := root.FS()

	var shown []string
	matched := 0
	err = walkFiles(ctx, fsys, g.dir, func(dir string) bool { return g.mayContain(g.rel(dir)) },
		func(p string) error {
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
		total := 0
		all := func(string) bool { return true }
		if err := walkFiles(ctx, fsys, ".", all, func(string) error { total++; return nil }); err != nil {
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
