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
	states := runParts(g.parts, strings.Split(rel, "/"))
	for p := range len(g.parts) {
		if states[p] {
			return true // a component is left to match below the folder
		}
	}
	return false
}

// matchParts reports whether names match parts whole.
func matchParts(parts, names []string) bool {
	return runParts(parts, names)[len(parts)]
}

// runParts runs the pattern as an automaton over names. Its states are the
// positions in parts (len(parts) means all matched): "**" keeps its state on
// any name and also stands for no folder at all; any other component moves
// one state on when path.Match accepts the name. The set of live states is
// carried from name to name, so the time is len(names) x len(parts) calls of
// path.Match, never a search over the ways "**" can split the path (which
// grows exponentially with the number of "**").
func runParts(parts, names []string) []bool {
	cur := make([]bool, len(parts)+1)
	next := make([]bool, len(parts)+1)
	cur[0] = true
	closeStars(parts, cur)
	for _, name := range names {
		clear(next)
		live := false
		for p, on := range cur[:len(parts)] {
			if !on {
				continue
			}
			if parts[p] == "**" {
				next[p], live = true, true
			} else if ok, _ := path.Match(parts[p], name); ok {
				next[p+1], live = true, true
			}
		}
		if !live {
			return next
		}
		closeStars(parts, next)
		cur, next = next, cur
	}
	return cur
}

// closeStars adds, for every live "**", the state after it ("**" matching no
// folder).
func closeStars(parts []string, states []bool) {
	for p, part := range parts {
		if states[p] && part == "**" {
			states[p+1] = true
		}
	}
}
