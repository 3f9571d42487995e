package conform

import (
	"encoding/json"
	"strings"
	"unicode"
)

// readWords are the words of a tool name that say the tool only reads.
var readWords = []string{"read", "view", "cat", "list", "ls", "glob", "find", "grep", "search"}

// actWords are the words of a tool name that say it does more than read
// the agent's folder: it writes, runs something, reaches the web, or hands
// the work to another agent. A tool whose name has one is never picked by
// default, whatever else its name says (google_web_search, ListAgents,
// tool_search).
var actWords = []string{
	"write", "edit", "create", "delete", "remove", "move", "rename", "patch", "apply",
	"run", "exec", "execute", "shell", "bash", "command", "terminal",
	"web", "fetch", "url", "http", "browse", "browser",
	"agent", "agents", "task", "todo", "skill", "tool", "plan", "goal", "topic", "mcp",
}

// A parameter's role, read from its name: where the probe's strings are
// safe (a pattern), and where a value must be a path that exists.
const (
	paramOther   = iota
	paramPattern // a search pattern, a glob, a query: the probe strings go here
	paramFile    // a file path: a file of the agent's folder
	paramDir     // a directory path: the agent's folder
)

// paramRole tells a parameter's role from its name, and for a bare "path"
// from the tool's name: a read or view tool reads a file, a list, glob,
// find or search tool looks in a directory.
func paramRole(tool, param string) int {
	switch {
	case anyWord(param, []string{"pattern", "patterns", "glob", "regex", "regexp", "query"}):
		return paramPattern
	case anyWord(param, []string{"dir", "directory", "folder", "cwd"}):
		return paramDir
	case anyWord(param, []string{"file", "filename", "filepath"}):
		return paramFile
	case anyWord(param, []string{"path", "paths"}) && anyWord(tool, []string{"read", "view", "cat"}):
		return paramFile
	case anyWord(param, []string{"path", "paths"}):
		return paramDir
	}
	return paramOther
}

// nestedRole is paramRole for a member of the object or array member
// parent ("" at the top): a bare path inside a member that holds files
// ("files": [{"path": ...}]) is a file, whatever the tool's name.
func nestedRole(tool, parent, param string) int {
	role := paramRole(tool, param)
	if role == paramDir && anyWord(param, []string{"path", "paths"}) && anyWord(parent, []string{"file", "files", "filename", "filepath"}) {
		return paramFile
	}
	return role
}

// pickTools picks the probe's tools when -call names none: tools whose
// names say they read and none of whose name words says they act
// (actWords), with a required parameter that is a pattern or a path, the
// first two in the agent's order; when neither of those takes a pattern
// and a later one does, that one replaces the second, so the probe's
// quote, backslash and CJK strings ride in a pattern and split escapes are
// exercised. With no such tool, the first two whose names say they read
// and do not act. A tool whose name says it reads media (view_image:
// mediaprobe.go) is picked only when no other is.
func pickTools(tools []Tool) []CallSpec {
	var withParam, plain, media []int
	for i, t := range tools {
		switch {
		case !readOnlyName(t.Name) || actName(t.Name):
			continue
		case mediaName(t.Name):
			media = append(media, i)
		case takesPatternOrPath(t):
			withParam = append(withParam, i)
		default:
			plain = append(plain, i)
		}
	}
	chosen := withParam
	if len(chosen) == 0 {
		chosen = plain
	}
	if len(chosen) == 0 {
		chosen = media
	}
	if len(chosen) > 2 {
		first := chosen[:2]
		if !takesPattern(tools[first[0]]) && !takesPattern(tools[first[1]]) {
			for _, i := range chosen[2:] {
				if takesPattern(tools[i]) {
					first = []int{first[0], i}
					break
				}
			}
		}
		chosen = first
	}
	specs := make([]CallSpec, len(chosen))
	for k, i := range chosen {
		specs[k] = CallSpec{Name: tools[i].Name}
	}
	return specs
}

func takesPatternOrPath(t Tool) bool {
	pattern, path := requiredRoles(t)
	return pattern || path
}

func takesPattern(t Tool) bool {
	pattern, _ := requiredRoles(t)
	return pattern
}

// requiredRoles reports whether the tool's schema requires a pattern and
// whether it requires a path.
func requiredRoles(t Tool) (pattern, path bool) {
	var s struct {
		Required []string `json:"required"`
	}
	if json.Unmarshal(t.Schema, &s) != nil {
		return false, false
	}
	for _, name := range s.Required {
		switch paramRole(t.Name, name) {
		case paramPattern:
			pattern = true
		case paramFile, paramDir:
			path = true
		}
	}
	return pattern, path
}

// readOnlyName reports whether one word of name is a read word.
func readOnlyName(name string) bool { return anyWord(name, readWords) }

// actName reports whether one word of name is an act word.
func actName(name string) bool { return anyWord(name, actWords) }

func anyWord(name string, set []string) bool {
	for _, w := range nameWords(name) {
		for _, s := range set {
			if strings.EqualFold(w, s) {
				return true
			}
		}
	}
	return false
}

// nameWords splits a name at '_', '-', '.', digits and lower-to-upper case
// changes: "grep_search" and "ListAgents" are two words each.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	prevLower := false
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r):
			words, cur = append(words, string(cur)), nil
		case unicode.IsUpper(r) && prevLower:
			words, cur = append(words, string(cur)), []rune{r}
		default:
			cur = append(cur, r)
		}
		prevLower = unicode.IsLower(r)
	}
	return append(words, string(cur))
}

// completionWords are the words of a tool name that say the agent ends its
// run by calling it (Cline's attempt_completion and submit_and_exit, a
// finish or submit tool), rather than by a text answer; planWords are
// those that make such a name another thing's end (complete_todo).
var (
	completionWords = []string{"submit", "finish", "completion", "complete", "completed"}
	planWords       = []string{"todo", "todos", "plan", "step"}
)

// completionTool is the first of the agent's tools whose name says the
// agent ends its run by calling it; ok is false when none does.
func completionTool(tools []Tool) (t Tool, ok bool) {
	for _, t := range tools {
		if anyWord(t.Name, completionWords) && !anyWord(t.Name, planWords) {
			return t, true
		}
	}
	return Tool{}, false
}
