package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// cardArgsRunes is how much of a call's arguments a card shows, in runes.
// The model got everything; the terminal gets a line. A result's line is
// the event's summary, already cut by the agent (agent.SummaryRunes).
const cardArgsRunes = 120

// ANSI colours used on a terminal.
const (
	ansiDim   = "\x1b[2m"
	ansiGreen = "\x1b[32m"
	ansiRed   = "\x1b[31m"
	ansiReset = "\x1b[0m"
)

// renderer prints the loop's events: tool cards (plain) or one JSON object
// per line (-json).
type renderer struct {
	w     io.Writer
	warn  io.Writer // plain: the merger's warnings go here (stderr), apart from the transcript
	lang  tools.Lang
	json  bool
	color bool
}

// event prints one event of the loop.
func (r renderer) event(e agent.Event) {
	if r.json {
		enc := json.NewEncoder(r.w)
		enc.SetEscapeHTML(false) // as `agentvcr tool -json`: "<" stays "<"
		if err := enc.Encode(e); err != nil {
			fmt.Fprintf(r.w, "{\"kind\":\"error\",\"error\":%q}\n", err.Error())
		}
		return
	}
	switch e.Kind {
	case agent.KindWarning:
		if r.warn != nil {
			fmt.Fprintf(r.warn, "agentvcr run: warning: turn %d: %s\n", e.Turn, e.Text)
		}
	case agent.KindReasoning:
		if text := strings.TrimSpace(e.Text); text != "" {
			r.line(ansiDim, r.thinking()+text)
		}
	case agent.KindText:
		if text := strings.TrimSpace(e.Text); text != "" {
			// two writes rather than Fprintln, which copies the text
			// (an answer can be tens of MB)
			io.WriteString(r.w, visible(text))
			io.WriteString(r.w, "\n")
		}
	case agent.KindCall:
		r.line(ansiDim, fmt.Sprintf("⚙ %s(%s)", e.Call.Name, cut(oneLine(e.Call.Arguments), cardArgsRunes)))
	case agent.KindResult:
		mark, colour := "✔", ansiGreen
		if e.Result.IsError {
			mark, colour = "✘", ansiRed
		}
		r.line(colour, fmt.Sprintf("%s %s %s · %s", mark, e.Call.Name, r.fedBack(e.Result), e.Result.Summary))
	}
}

// thinking labels the model's reasoning, which a terminal shows dimmed,
// apart from its answer.
func (r renderer) thinking() string {
	if r.lang == tools.EN {
		return "thinking: "
	}
	return "思考："
}

// fedBack says how many characters went back to the model, and how many the
// tool produced when the result was cut.
func (r renderer) fedBack(res *agent.EventResult) string {
	if r.lang == tools.EN {
		if res.Truncated {
			return fmt.Sprintf("fed back %d chars (cut from %d)", res.Chars, res.OriginalChars)
		}
		return fmt.Sprintf("fed back %d chars", res.Chars)
	}
	if res.Truncated {
		return fmt.Sprintf("回灌 %d 字符（原 %d 字符，已截断）", res.Chars, res.OriginalChars)
	}
	return fmt.Sprintf("回灌 %d 字符", res.Chars)
}

// line prints s, its controls made visible, coloured when the renderer may.
func (r renderer) line(colour, s string) {
	s = visible(s)
	if r.color {
		s = colour + s + ansiReset
	}
	fmt.Fprintln(r.w, s)
}

// oneLine folds newlines so that a card stays on one line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎").Replace(s)
}

// cut shortens s to n runes, marking the cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n-1]) + "…"
}
