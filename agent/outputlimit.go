package agent

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrOutputLimit is matched (errors.Is) by the error a format's Merge
// returns when the model's output token limit ended the stream in the middle
// of a tool call: the call's arguments are cut, so it must not run, and the
// turn must not go into the history (Loop adds nothing for a turn whose
// request failed).
var ErrOutputLimit = errors.New("the output token limit cut a tool call")

// OutputLimitError is the error behind ErrOutputLimit: which call was cut,
// and the stream's own word for the limit.
type OutputLimitError struct {
	// Reason is how the stream said it: `finish_reason "length"`,
	// `stop_reason "max_tokens"`.
	Reason string
	Name   string // the cut call's tool name
	ID     string // the cut call's id
}

func (e *OutputLimitError) Error() string {
	return fmt.Sprintf("the output token limit (%s) cut tool call %s (%s) before its arguments were complete; it is not run",
		e.Reason, strconv.Quote(e.Name), e.ID)
}

// Is makes errors.Is(err, ErrOutputLimit) true.
func (e *OutputLimitError) Is(target error) bool { return target == ErrOutputLimit }
