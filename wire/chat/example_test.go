package chat_test

import (
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/wire/chat"
)

// A gateway that numbers its calls from 1 and splits the arguments inside an
// escape still merges into one call with whole, valid arguments.
func ExampleMerge() {
	stream := `data: {"choices":[{"index":0,"delta":{"content":"Reading it."}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\\"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"b.js\"}"}}]}}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	turn, err := chat.Merge(strings.NewReader(stream))
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(turn.Text)
	for _, c := range turn.ToolCalls {
		fmt.Println(c.ID, c.Function.Name, c.Function.Arguments)
	}
	fmt.Println("tool turn:", turn.ToolTurn)
	// Output:
	// Reading it.
	// call_1 read_file {"path":"a\"b.js"}
	// tool turn: true
}
