package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
)

// maxResult caps what one tool call sends back to the model, in bytes.
const maxResult = 8000

// runTool runs one tool call on the working directory. It never fails: a bad
// call becomes an error string the model can read and act on.
func runTool(name, arguments string) string {
	var args struct{ Path, Pattern string }
	if err := json.Unmarshal([]byte(arguments), &args); err != nil {
		return fmt.Sprintf("error: the arguments of %s are not a JSON object: %v", name, err)
	}
	root := os.DirFS(".")
	var out string
	var err error
	switch name {
	case "read_file":
		out, err = readFile(root, args.Path)
	case "glob":
		out, err = globFiles(root, args.Pattern)
	case "grep":
		out, err = grep(root, args.Pattern, args.Path)
	default:
		return fmt.Sprintf("error: there is no tool %q; the tools are read_file, glob and grep", name)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	if len(out) > maxResult {
		out = strings.ToValidUTF8(out[:maxResult], "") + "\n[truncated]"
	}
	return out
}

// clean turns a path from the model into an fs.FS path inside the root.
func clean(p string) (string, error) {
	p = path.Clean(strings.TrimPrefix(p, "./"))
	if p == "" || !fs.ValidPath(p) {
		return "", fmt.Errorf("%q is not a path inside the repository", p)
	}
	return p, nil
}

func readFile(root fs.FS, name string) (string, error) {
	p, err := clean(name)
	if err != nil {
		return "", err
	}
	data, err := fs.ReadFile(root, p)
	return string(data), err
}

func globFiles(root fs.FS, pattern string) (string, error) {
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return "", fmt.Errorf("bad pattern %q: %w", pattern, err)
	}
	var found []string
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && hidden(p, d) {
			return fs.SkipDir
		}
		if err == nil && !d.IsDir() && match(strings.Split(pattern, "/"), strings.Split(p, "/")) {
			found = append(found, p)
		}
		return err
	})
	if len(found) == 0 && err == nil {
		return "no file matches " + pattern, nil
	}
	return strings.Join(found, "\n"), err
}

// match reports whether the path segments match the pattern segments, where
// a "**" segment matches any number of segments.
func match(pattern, segs []string) bool {
	if len(pattern) == 0 {
		return len(segs) == 0
	}
	if pattern[0] == "**" {
		return match(pattern[1:], segs) || len(segs) > 0 && match(pattern, segs[1:])
	}
	if len(segs) == 0 {
		return false
	}
	ok, _ := path.Match(pattern[0], segs[0])
	return ok && match(pattern[1:], segs[1:])
}

// hidden reports a dot directory (.git, .cache), which no tool looks into.
func hidden(p string, d fs.DirEntry) bool {
	return d.IsDir() && p != "." && strings.HasPrefix(d.Name(), ".")
}

func grep(root fs.FS, pattern, dir string) (string, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", err
	}
	start := "."
	if dir != "" {
		if start, err = clean(dir); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	err = fs.WalkDir(root, start, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case b.Len() > maxResult:
			return fs.SkipAll
		case hidden(p, d):
			return fs.SkipDir
		case d.IsDir():
			return nil
		}
		data, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if re.MatchString(line) {
				fmt.Fprintf(&b, "%s:%d:%s\n", p, i+1, line)
			}
		}
		return nil
	})
	if b.Len() == 0 && err == nil {
		return "no match for " + pattern, nil
	}
	return b.String(), err
}
