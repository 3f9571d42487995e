package tools_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentvcr/agentvcr/tools"
)

// Execute never fails: whatever the model sends, the result is the text to
// feed back, and IsError marks a failure the model can act on.
func ExampleRegistry_Execute() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte("let a = 1;\n"), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := tools.Default(ws, tools.EN)
	for _, c := range []tools.Call{
		{ID: "call_1", Name: "glob", Arguments: `{"pattern":"**/*.js"}`},
		{ID: "call_2", Name: "edit_file", Arguments: `{}`},
	} {
		r := reg.Execute(context.Background(), c)
		fmt.Printf("%s error=%v: %s\n", c.Name, r.IsError, r.Content)
	}
	// Output:
	// glob error=false: a.js
	// edit_file error=true: There is no tool named edit_file. Available tools: glob, grep, read_file
}
