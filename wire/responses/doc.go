// Package responses is the OpenAI Responses wire format (Format): POST
// {base}/responses with a Bearer key, the request body of input items, and
// the merger of its typed events into one agent.Turn.
//
// # Stream rules
//
// The OpenAI Responses stream  is typed
// events; the merger reads the same SSE and fills the same Turn. Items are
// found through maps, never by array position: by item_id; else a function
// call by call_id; else the latest open item of the same kind (message,
// function_call, reasoning, other) at the same output_index, so that ids
// rotating on every event and an output_item.added keyed by call_id join the
// item already open there, while reasoning and a call sharing one
// output_index stay apart. Content for an item never announced opens it.
// Arguments are function_call_arguments.delta appended; the text of
// function_call_arguments.done and then of output_item.done confirms or
// supplies them and wins, a difference being a warning (agent.Turn.Warnings). Text
// is output_text.delta per content part, confirmed the same way by
// output_text.done, content_part.done and output_item.done. An empty done
// text never wipes streamed text. response.completed's output only fills
// gaps (names, arguments, text, calls never streamed): it never wipes or
// reorders what was streamed. Items come out sorted by output_index
// (first-seen order breaks ties); only function_call and custom_tool_call
// items are calls (built-in tool items such as web_search_call or shell_call
// are not); a call's id is its call_id. FinishReason is "tool_calls" with calls, else
// "stop", once response.completed arrived. Events are merged in arrival
// order; a sequence_number that does not rise is a warning. Unknown event
// types are ignored; a stream need not begin with response.created.
// Errors, each with the turn merged so far: an error event,
// response.failed and response.incomplete are *agent.StreamError (never text);
// a stream that ends before response.completed matches agent.ErrTruncatedStream;
// a second response.created is ErrSecondResponse (a lifecycle event with
// another response id is not: GitHub Copilot rotates it on every event).
// reasoning_text content parts (content_part.added/.done on a reasoning
// item: DeepSeek, LM Studio, OpenRouter) are reasoning, never answer text.
// Custom tool calls (custom_tool_call items, custom_tool_call_input.delta
// and .done) are calls of Type "custom" whose arguments are the freeform
// input as it came (custom.go); Body answers them with
// custom_tool_call_output.
// Events after response.completed are ignored with a warning.
package responses
