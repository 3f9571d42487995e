// Command openai-go-agent is a small coding agent written the way the
// openai-go SDK's README and examples write one: a streamed chat completion
// with tools, merged by the SDK's own ChatCompletionAccumulator, the tool
// results sent back with the assistant message, until the model stops
// calling tools. It is here to be run under agentvcr conform, which shows
// what the SDK does with the stream shapes real gateways send.
//
// The client reads OPENAI_BASE_URL and OPENAI_API_KEY from the environment
// (the SDK's defaults); AGENT_MODEL names the model. The prompt is the
// command's arguments. The tools read the working directory.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

const maxSteps = 5

func main() {
	text, err := run(context.Background(), strings.Join(os.Args[1:], " "))
	if err != nil {
		fmt.Fprintln(os.Stderr, "openai-go-agent:", strings.ReplaceAll(err.Error(), "\n", " "))
		os.Exit(1)
	}
	fmt.Println(text)
}

func run(ctx context.Context, prompt string) (string, error) {
	if prompt == "" {
		prompt = "Why are the tests red? Look at the code before you answer."
	}
	model := os.Getenv("AGENT_MODEL")
	if model == "" {
		model = "gpt-4o-mini"
	}
	client := openai.NewClient() // OPENAI_BASE_URL, OPENAI_API_KEY
	params := openai.ChatCompletionNewParams{
		Model: model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You are a coding assistant. Use the tools to read the repository in the working directory."),
			openai.UserMessage(prompt),
		},
		Tools: toolDefinitions(),
	}
	for step := 0; step < maxSteps; step++ {
		stream := client.Chat.Completions.NewStreaming(ctx, params)
		acc := openai.ChatCompletionAccumulator{}
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		if err := stream.Err(); err != nil {
			return "", err
		}
		stream.Close()
		if len(acc.Choices) == 0 {
			return "", errors.New("the model sent no choices")
		}
		msg := acc.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		params.Messages = append(params.Messages, msg.ToParam())
		for _, call := range msg.ToolCalls {
			result := runTool(call.Function.Name, call.Function.Arguments)
			params.Messages = append(params.Messages, openai.ToolMessage(result, call.ID))
		}
	}
	return "", fmt.Errorf("no answer after %d steps", maxSteps)
}

func toolDefinitions() []openai.ChatCompletionToolUnionParam {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	tool := func(name, desc string, props map[string]any, required ...string) openai.ChatCompletionToolUnionParam {
		return openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        name,
			Description: openai.String(desc),
			Parameters:  shared.FunctionParameters{"type": "object", "properties": props, "required": required},
		})
	}
	return []openai.ChatCompletionToolUnionParam{
		tool("read_file", "Read a text file of the repository.",
			map[string]any{"path": str("path relative to the repository root")}, "path"),
		tool("glob", "List the files whose path matches a glob pattern; ** matches any number of directories.",
			map[string]any{"pattern": str("glob pattern, e.g. **/*.go")}, "pattern"),
		tool("grep", "Search the repository's files for a regular expression; prints path:line:text.",
			map[string]any{"pattern": str("Go regular expression"), "path": str("file or directory to search (default: all)")}, "pattern"),
	}
}
