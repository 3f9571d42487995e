package cassette_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/tools"
)

// Replaying a cassette: open it in ModeReplay, give its client to the agent,
// send the conversation it recorded, then Stop, which fails when a recorded
// interaction was never asked for. Nothing reaches the network.
func ExampleOpen() {
	path := filepath.Join("..", "..", "cassettes", "demo.en.yaml")
	rec, err := cassette.ReadRecording(path) // the recorded endpoint, model and prompt
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := cassette.Open(path, cassette.ModeReplay, nil, cassette.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "sandbox")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := demo.WriteSandbox(dir); err != nil { // the repository it was recorded on
		fmt.Println(err)
		return
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	loop := agent.Loop{
		Client: &agent.Client{BaseURL: rec.BaseURL, Model: rec.Model, HTTPClient: &http.Client{Transport: c.Transport()}, Format: rec.API},
		Tools:  tools.Default(ws, tools.EN),
		OnEvent: func(e agent.Event) {
			if e.Kind == agent.KindResult {
				fmt.Printf("%s fed back %d characters\n", e.Call.Name, e.Result.Chars)
			}
		},
	}
	_, err = loop.Run(context.Background(), []agent.Message{
		{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.EN)},
		{Role: agent.RoleUser, Content: rec.Prompt},
	})
	fmt.Println("run:", err)
	fmt.Println("stop:", c.Stop())
	// Output:
	// glob fed back 50 characters
	// grep fed back 361 characters
	// read_file fed back 250 characters
	// run: <nil>
	// stop: <nil>
}
