package conform

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A tool whose name says it reads may read no text: Codex offers
// view_image, and reads files through its shell tool. Given a README it
// fails, so a probe that calls only such tools exercises no tool that
// reads. pickTools takes one only when no other tool that reads qualifies,
// and the probe's verdict (the first case's details) then says so and
// names the -call that would read text: the agent's shell tool with a
// read-only command. conform never calls a shell by itself: that stays
// opt-in.

// mediaWords are the words of a tool name that say it reads something
// other than text.
var mediaWords = []string{"image", "images", "img", "picture", "pictures", "photo", "photos", "screenshot", "pdf", "audio", "video", "media"}

// shellWords are the words of a tool name that say it runs a command.
var shellWords = []string{"shell", "bash", "exec", "command", "terminal", "sh", "cmd"}

// mediaName reports whether one word of name is a media word.
func mediaName(name string) bool { return anyWord(name, mediaWords) }

// mediaNote is what the first case's details add when every call the
// probe picked (no -call given) is of a tool that reads no text; "" when
// one reads text. tools are the agent's, dir the folder it runs in.
func mediaNote(tools []Tool, calls []Call, dir string) string {
	var names []string
	for _, c := range calls {
		if !mediaName(c.Name) {
			return ""
		}
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	note := fmt.Sprintf("; but the probe could pick no tool that reads text, only %s, whose name says it reads media: its calls on the folder's files fail, so the probe exercises no tool that reads", strings.Join(names, " and "))
	for _, t := range tools {
		if args, ok := shellCall(t, folderPaths(dir).file); ok {
			return note + fmt.Sprintf("; -call %s would call the agent's shell tool with a read-only command instead (conform calls a shell only when told)", shellQuote(t.Name+"="+args))
		}
	}
	return note + "; name a tool that reads text with -call NAME[=ARGS_JSON]"
}

// shellCall is the arguments of a call of t that reads file (lists the
// folder when file is ""), when t is a shell tool: its name says it runs a
// command and it requires a command member (command, cmd, script), a
// string ("cat FILE") or an array of strings (["cat", "FILE"]); its other
// required members are generated.
func shellCall(t Tool, file string) (args string, ok bool) {
	if !anyWord(t.Name, shellWords) {
		return "", false
	}
	var s map[string]any
	if json.Unmarshal(t.Schema, &s) != nil {
		return "", false
	}
	argv := []string{"ls"}
	if file != "" {
		argv = []string{"cat", file}
	}
	found := false
	var b strings.Builder
	writeObject(&b, s, 0, 0, "", func(parent, name string, sub map[string]any) (string, bool) {
		if parent != "" || found || !anyWord(name, []string{"command", "cmd", "script"}) {
			return "", false
		}
		var v []byte
		switch schemaType(sub) {
		case "string":
			v, _ = json.Marshal(strings.Join(argv, " "))
		case "array":
			v, _ = json.Marshal(argv)
		default:
			return "", false
		}
		found = true
		return string(v), true
	})
	return b.String(), found
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
