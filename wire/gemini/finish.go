package gemini

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// ErrMalformedFunctionCall is matched (errors.Is) by the error of a stream
// that ends with finishReason MALFORMED_FUNCTION_CALL: the model meant to
// call a tool and the call did not parse. With no call part Gemini sent
// none of it; after call parts it says those are invalid. Either way no
// call of the turn runs and the turn is neither an answer nor a tool turn
// (asking again may work).
var ErrMalformedFunctionCall = errors.New("finishReason MALFORMED_FUNCTION_CALL: the model's call did not parse and Gemini sent none of it (asking again may work)")

// ErrUnexpectedToolCall is matched by the error of a stream that ends with
// finishReason UNEXPECTED_TOOL_CALL: the model called a tool though the
// request enabled none; no call of the turn runs.
var ErrUnexpectedToolCall = errors.New("finishReason UNEXPECTED_TOOL_CALL: the model called a tool though the request enabled none")

// ErrBlocked is matched by a *BlockedError: the prompt or the answer was
// blocked and the turn has no text and no call.
var ErrBlocked = errors.New("blocked by Gemini: the prompt or the answer")

// BlockedError says why a turn came back empty: the prompt was blocked
// (promptFeedback.blockReason, no candidate) or the answer was
// (finishReason SAFETY, RECITATION, PROHIBITED_CONTENT, BLOCKLIST, SPII,
// IMAGE_SAFETY, LANGUAGE or OTHER with no content). A turn that has text or
// a call keeps it with that finish reason instead: what came is the answer,
// cut where the filter stopped it.
type BlockedError struct {
	Prompt  bool   // the prompt was blocked, not the answer
	Reason  string // blockReason or finishReason, as Gemini names it
	Message string // blockReasonMessage or finishMessage, when sent
}

func (e *BlockedError) Error() string {
	s := "the answer was blocked (finishReason " + e.Reason + ") before any text or call"
	if e.Prompt {
		s = "the prompt was blocked (promptFeedback.blockReason " + e.Reason + "): no candidate came"
	}
	if e.Message != "" {
		s += ": " + strconv.Quote(e.Message)
	}
	return s
}

// Is makes errors.Is(err, ErrBlocked) true.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// blockedFinish are the finish reasons of an answer a filter stopped.
var blockedFinish = map[string]bool{"SAFETY": true, "RECITATION": true, "PROHIBITED_CONTENT": true,
	"BLOCKLIST": true, "SPII": true, "IMAGE_SAFETY": true, "LANGUAGE": true, "OTHER": true}

// invalidCallError is MALFORMED_FUNCTION_CALL or UNEXPECTED_TOOL_CALL after
// call parts: the calls came, and Gemini says they must not run.
type invalidCallError struct {
	reason  string
	calls   []string // "name (id)" of each call of the turn
	message string   // finishMessage, when sent
}

func (e *invalidCallError) Error() string {
	why := "Gemini says the call the model produced is invalid"
	if e.reason == "UNEXPECTED_TOOL_CALL" {
		why = "the model called a tool though the request enabled none"
	}
	s := fmt.Sprintf("finishReason %s with no call part: %s", e.reason, why)
	if len(e.calls) > 0 {
		s = fmt.Sprintf("finishReason %s after %d call(s) %s: %s; no call of the turn is run", e.reason, len(e.calls), strings.Join(e.calls, ", "), why)
	}
	if e.message != "" {
		s += ": " + strconv.Quote(e.message)
	}
	return s
}

func (e *invalidCallError) Is(target error) bool {
	return (target == ErrMalformedFunctionCall && e.reason == "MALFORMED_FUNCTION_CALL") ||
		(target == ErrUnexpectedToolCall && e.reason == "UNEXPECTED_TOOL_CALL")
}

// end decides what the whole stream was once it has been read: cut short
// (no finishReason), a call the output limit cut (MAX_TOKENS while a call's
// arguments were still streaming), calls Gemini disowns, an empty blocked
// turn, or a turn. A streamed call still open at any other finishReason
// ends there with a warning: the stream said the turn was done.
func (m *merger) end() error {
	fr := m.t.FinishReason
	if fr == "" {
		return truncatedGemini{}
	}
	if o := m.open; o != nil {
		if fr == "MAX_TOKENS" {
			return &agent.OutputLimitError{Reason: `finishReason "MAX_TOKENS"`, Name: o.name, ID: m.t.ToolCalls[o.i].ID}
		}
		m.note("call " + o.name + " was still streaming its arguments (willContinue) when finishReason " + fr + " came; it ended there")
		m.closeOpen()
	}
	switch {
	case fr == "MALFORMED_FUNCTION_CALL" && len(m.t.ToolCalls) == 0:
		return ErrMalformedFunctionCall
	case fr == "MALFORMED_FUNCTION_CALL" || fr == "UNEXPECTED_TOOL_CALL":
		e := &invalidCallError{reason: fr, message: m.finishMessage}
		for _, c := range m.t.ToolCalls {
			e.calls = append(e.calls, c.Function.Name+" ("+c.ID+")")
		}
		return e
	case m.t.Text == "" && len(m.t.ToolCalls) == 0 && m.blockReason != "":
		return &BlockedError{Prompt: true, Reason: m.blockReason, Message: m.blockMessage}
	case m.t.Text == "" && len(m.t.ToolCalls) == 0 && blockedFinish[fr]:
		return &BlockedError{Reason: fr, Message: m.finishMessage}
	}
	return nil
}
