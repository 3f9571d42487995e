package conform

import (
	"os"
	"path/filepath"
	"strings"
)

// probePaths are what the probe gives a path parameter: a file of the
// folder the agent runs in and the folder itself, relative to it and
// absolute. Real agents refuse a path that does not look like one or lies
// outside their folder (Claude Code's path-safety check refused the probe
// strings), so a path is never a probe string when the folder has a file.
type probePaths struct {
	file, absFile string // "" when the folder has no file
	dir, absDir   string
}

// folderPaths reads dir: its file is the first README, else the first
// regular file that is not hidden, by name. dir "" is no folder: no path
// parameter gets a path (the catalog's streams stay the same everywhere).
func folderPaths(dir string) probePaths {
	if dir == "" {
		return probePaths{}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return probePaths{}
	}
	p := probePaths{dir: ".", absDir: abs}
	entries, _ := os.ReadDir(abs) // sorted by name; unreadable: no file
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") {
			continue
		}
		if p.file == "" || strings.HasPrefix(strings.ToLower(name), "readme") && !strings.HasPrefix(strings.ToLower(p.file), "readme") {
			p.file = name
		}
	}
	if p.file != "" {
		p.absFile = filepath.Join(abs, p.file)
	}
	return p
}

// value is the path for a parameter of role whose schema is sub: absolute
// when the parameter's description says so, else relative. ok is false
// when the parameter is no path, not a string, or the folder has no file
// for a file parameter.
func (p probePaths) value(role int, sub map[string]any) (string, bool) {
	if p.absDir == "" || schemaType(sub) != "string" {
		return "", false
	}
	desc, _ := sub["description"].(string)
	absolute := strings.Contains(strings.ToLower(desc), "absolute")
	switch {
	case role == paramFile && p.file != "" && absolute:
		return p.absFile, true
	case role == paramFile && p.file != "":
		return p.file, true
	case role == paramDir && absolute:
		return p.absDir, true
	case role == paramDir:
		return p.dir, true
	}
	return "", false
}
