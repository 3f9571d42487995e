package tools

import (
	"errors"
	"path"
	"strings"
)

// globPattern is a compiled glob: the folder its literal prefix names
// (root-relative, resolved through the workspace) and the components left to
// match below it. "**" spans any number of folders, "*" and "?" stay within
// one, as in path.Match.
type globPattern struct {
	dir   string   // "." or a root-relative folder, / separators
	parts []string // components matched below dir
}

var errBadPattern = errors.New("bad glob pattern")

// compileGlob splits pattern at its first wildcard, resolves the literal part
// inside the workspace and checks the rest.
func compileGlob(ws *Workspace, t *catalog, pattern string) (globPattern, error) {
	if strings.ContainsRune(pattern, 0) {
		return globPattern{}, failf(ErrNULInPath, t.patternNulF, pattern)
	}
	var comps []string
	for _, c := range strings.Split(pattern, "/") {
		if c != "" && c != "." {
			comps = append(comps, c)
		}
	}
	if len(comps) == 0 {
		return globPattern{}, failf(errBadPattern, t.badPatternF, pattern)
	}
	lit := len(comps) - 1 // a pattern without wildcards matches its last component
	for i, c := range comps {
		if strings.ContainsAny(c, `*?[\`) {
			lit = i
			break
		}
	}
	prefix := strings.Join(comps[:lit], "/")
	if strings.HasPrefix(pattern, "/") {
		prefix = "/" + prefix
	}
	if prefix == "" {
		prefix = "."
	}
	dir, err := ws.Resolve(prefix)
	if err != nil {
		return globPattern{}, failf(err, t.patternOutsideF, pattern)
	}
	parts := collapseStars(comps[lit:])
	for _, p := range parts {
		if p == ".." {
			return globPattern{}, failf(errBadPattern, t.dotDotF, pattern)
		}
		if _, err := path.Match(p, ""); err != nil {
			return globPattern{}, failf(errBadPattern, t.badPatternF, pattern)
		}
	}
	return globPattern{dir: dir, parts: parts}, nil
}

func collapseStars(parts []string) []string {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p == "**" && len(out) > 0 && out[len(out)-1] == "**" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// rel strips the pattern's folder from a root-relative path.
func (g globPattern) rel(p string) string {
	if g.dir == "." {
		return p
	}
	return strings.TrimPrefix(p, g.dir+"/")
}

// match reports whether a file's path relative to g.dir matches.
func (g globPattern) match(rel string) bool {
	return matchParts(g.parts, strings.Split(rel, "/"))
}

// mayContain reports whether a folder (relative to g.dir) can hold a match,
// so walks skip folders the pattern can never reach.
func (g globPattern) mayContain(rel string) bool {
	names := strings.Split(rel, "/")
	for i, name := range names {
		if i >= len(g.parts) {
			return false
		}
		if g.parts[i] == "**" {
			return true
		}
		if ok, _ := path.Match(g.parts[i], name); !ok {
			return false
		}
	}
	return len(g.parts) > len(names)
}

func matchParts(parts, names []string) bool {
	for len(parts) > 0 {
		if parts[0] == "**" {
			rest := parts[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i < len(names); i++ {
				if matchParts(rest, names[i:]) {
					return true
				}
			}
			return false
		}
		if len(names) == 0 {
			return false
		}
		if ok, _ := path.Match(parts[0], names[0]); !ok {
			return false
		}
		parts, names = parts[1:], names[1:]
	}
	return len(names) == 0
}
