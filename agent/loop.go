package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agentvcr/agentvcr/tools"
)

// DefaultMaxTurns is the turn limit when Loop.MaxTurns is 0.
const DefaultMaxTurns = 10

// ErrTurnLimit is matched (errors.Is) by the error Run returns when the model
// still asks for tools after MaxTurns requests.
var ErrTurnLimit = errors.New("agent: turn limit reached without a final answer")

type turnLimitError struct{ max int }

func (e turnLimitError) Error() string {
	return fmt.Sprintf("agent: turn limit of %d reached without a final answer", e.max)
}

func (e turnLimitError) Is(target error) bool { return target == ErrTurnLimit }

// Loop runs think -> call tools -> observe until the model asks for no tool.
type Loop struct {
	Client   *Client
	Tools    *tools.Registry
	MaxTurns int         // requests allowed; 0 means DefaultMaxTurns
	OnEvent  func(Event) // optional; called synchronously, in order
}

// Run sends the whole conversation on every request and returns it grown by
// every assistant message and tool result. The messages it returns always
// pass CheckMessages: a request that fails adds nothing (a partial assistant
// message is dropped), and a cancellation while tools run closes every
// remaining call with a failure result. Errors: a request's error wrapped
// (*HTTPError, *StreamError, ErrTruncatedStream), ctx.Err() wrapped,
// ErrTurnLimit, or ErrInvalidMessages when the messages given (or a bug)
// break the invariants.
func (l *Loop) Run(ctx context.Context, msgs []Message) ([]Message, error) {
	msgs = slices.Clone(msgs)
	if l.Client == nil || l.Tools == nil {
		return msgs, errors.New("agent: Loop needs a Client and a Tools registry")
	}
	max := l.MaxTurns
	if max <= 0 {
		max = DefaultMaxTurns
	}
	defs := l.Tools.Definitions()
	for turn := 1; turn <= max; turn++ {
		if err := ctx.Err(); err != nil {
			return msgs, cancelled(err)
		}
		if err := l.Client.Format.Check(msgs); err != nil {
			return msgs, fmt.Errorf("agent: before request %d: %w", turn, err)
		}
		t, err := l.Client.Complete(ctx, msgs, defs)
		if err != nil {
			if ctx.Err() != nil {
				return msgs, cancelled(ctx.Err())
			}
			return msgs, fmt.Errorf("agent: request %d: %w", turn, err)
		}
		reply := Message{Role: RoleAssistant, Content: t.Text, Thinking: t.Thinking}
		if len(t.ToolCalls) > 0 {
			reply.ToolCalls = t.ToolCalls
		}
		msgs = append(msgs, reply)
		for _, w := range t.Warnings {
			l.emit(Event{Kind: KindWarning, Turn: turn, Text: w})
		}
		if r := t.ReasoningText(); r != "" {
			l.emit(Event{Kind: KindReasoning, Turn: turn, Text: r})
		}
		if t.Text != "" {
			l.emit(Event{Kind: KindText, Turn: turn, Text: t.Text})
		}
		msgs = l.runCalls(ctx, turn, t.ToolCalls, msgs)
		l.emit(Event{Kind: KindTurnEnd, Turn: turn, FinishReason: t.FinishReason, ToolCalls: len(t.ToolCalls)})
		if err := ctx.Err(); err != nil {
			return msgs, cancelled(err)
		}
		if len(t.ToolCalls) == 0 {
			return msgs, nil
		}
	}
	return msgs, turnLimitError{max}
}

// runCalls runs the calls one after another, in order, and appends one tool
// message per call. Once ctx is done, the calls left get a failure result
// without running (and without events).
func (l *Loop) runCalls(ctx context.Context, turn int, calls []ToolCall, msgs []Message) []Message {
	for _, c := range calls {
		if ctx.Err() != nil {
			msgs = append(msgs, Message{Role: RoleTool, ToolCallID: c.ID, Content: cancelledText(l.Tools.Lang())})
			continue
		}
		l.emit(Event{Kind: KindCall, Turn: turn, Call: eventCall(c)})
		res := l.Tools.Execute(ctx, tools.Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		msgs = append(msgs, Message{Role: RoleTool, ToolCallID: c.ID, Content: res.Content})
		l.emit(Event{Kind: KindResult, Turn: turn, Call: eventCall(c), Result: eventResult(res)})
	}
	return msgs
}

func (l *Loop) emit(e Event) {
	if l.OnEvent != nil {
		l.OnEvent(e)
	}
}

func cancelled(err error) error {
	return fmt.Errorf("agent: run cancelled: %w", err)
}

// cancelledText is the result fed back for a call that was not run.
func cancelledText(lang tools.Lang) string {
	if lang == tools.EN {
		return "cancelled: this tool call was not run"
	}
	return "已取消：这个工具调用没有执行"
}
