package quirk

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// The Anthropic Messages quirks of how content blocks are numbered, started
// and stopped, and the output limit cutting a tool_use.
func messagesBlockQuirks() []Quirk {
	return []Quirk{
		{Name: "messages_all_index_0", compose: aspects{edits: aIndex, needs: aOrder, closes: callAspects}, streaming: msgFrom("content_block_start"), Benign: true, Apply: msgEdit(allBlocksAtZero),
			Doc: "every content block at index 0, each started after the one before stopped (sglang #39782, PeakCode PR #16)"},
		{Name: "messages_start_repeats_index", compose: aspects{edits: aIndex}, streaming: msgFrom("content_block_start"), Benign: true, Apply: msgEdit(startRepeatsIndex),
			Doc: "a tool_use's content_block_start repeats the stopped block's index; its deltas and stop name its own (the API in code execution: vercel/ai anthropic-code-execution-pdf-skill)"},
		{Name: "messages_prefilled_start", compose: aspects{edits: aStart | aBlocks | aPieces | aIndex | aOrder | aInput}, Benign: true, Apply: msgEdit(prefilledStart),
			Doc: "message_start already holds every block in message.content, with the stop_reason; no content_block event (vercel/ai anthropic-message-start-prepopulated-content)"},
		{Name: "messages_stop_twice", compose: aspects{edits: aBlocks}, streaming: msgFrom("content_block_stop"), Benign: true, Apply: msgEdit(stopTwice),
			Doc: "content_block_stop twice for every tool_use (LiteLLM: BerriAI/litellm #37273, Claude Code then ran the tool twice)"},
		{Name: "messages_max_tokens_cut", compose: aspects{edits: aEnd | aFinish, closes: afterEnd}, streaming: msgCalls, Benign: false, Apply: msgEdit(maxTokensCut),
			Doc: `the output limit cuts the last tool_use: a partial input_json_delta, then stop_reason "max_tokens" (goose #11838, LibreChat-AI agents PR #280)`},
	}
}

// blockSpans returns, for each content block in start order, the positions
// of its start and of its first stop (-1 when it never stops), or
// ErrNotApplicable when a block starts before the one before it stopped.
func (s *msgStream) blockSpans() ([][2]int, error) {
	var spans [][2]int
	for i := range s.data {
		switch s.typ(i) {
		case "content_block_start":
			if n := len(spans); n > 0 && spans[n-1][1] < 0 {
				return nil, fmt.Errorf("block %s starts while another is open: %w", s.index(i), ErrNotApplicable)
			}
			spans = append(spans, [2]int{i, -1})
		case "content_block_stop":
			if n := len(spans); n > 0 && spans[n-1][1] < 0 && s.index(i) == s.index(spans[n-1][0]) {
				spans[n-1][1] = i
			}
		}
	}
	return spans, nil
}

// allBlocksAtZero numbers every block 0.
func allBlocksAtZero(s *msgStream) error {
	if _, err := s.blockSpans(); err != nil {
		return err
	}
	for i := range s.data {
		if s.index(i) != "" {
			s.data[i].set("index", json.Number("0"))
		}
	}
	return nil
}

// startRepeatsIndex gives the first tool_use block that follows another
// block the index of that block on its start only.
func startRepeatsIndex(s *msgStream) error {
	spans, err := s.blockSpans()
	if err != nil {
		return err
	}
	for k := 1; k < len(spans); k++ {
		start := spans[k][0]
		if s.data[start].object("content_block").str("type") == "tool_use" {
			s.data[start].set("index", s.index(spans[k-1][0]))
			return nil
		}
	}
	return nil
}

// stopTwice repeats every tool_use block's content_block_stop.
func stopTwice(s *msgStream) error {
	spans, err := s.blockSpans()
	if err != nil {
		return err
	}
	for k := len(spans) - 1; k >= 0; k-- {
		if start, stop := spans[k][0], spans[k][1]; stop >= 0 && s.data[start].object("content_block").str("type") == "tool_use" {
			s.insert(stop+1, s.data[stop].clone())
		}
	}
	return nil
}

// prefilledStart moves every block, whole, into message_start's
// message.content and drops the content_block events; message_start also
// carries the final stop_reason.
func prefilledStart(s *msgStream) error {
	spans, err := s.blockSpans()
	if err != nil {
		return err
	}
	start, stopReason := -1, any(nil)
	for i := range s.data {
		switch s.typ(i) {
		case "message_start":
			if start < 0 {
				start = i
			}
		case "message_delta":
			if r := s.data[i].object("delta").str("stop_reason"); r != "" {
				stopReason = r
			}
		}
	}
	if start < 0 {
		return fmt.Errorf("no message_start: %w", ErrNotApplicable)
	}
	var content []any
	for _, sp := range spans {
		block, err := s.wholeBlock(sp[0])
		if err != nil {
			return err
		}
		content = append(content, block)
	}
	if content == nil {
		content = []any{}
	}
	msg := s.data[start].object("message")
	msg.set("content", content)
	msg.set("stop_reason", stopReason)
	for i := len(s.data) - 1; i >= 0; i-- {
		switch s.typ(i) {
		case "content_block_start", "content_block_delta", "content_block_stop":
			s.remove(i)
		}
	}
	return nil
}

// wholeBlock is the block started at position at with its deltas applied:
// text and thinking joined, a tool_use's input the joined partial_json (as
// sent) or its start's input.
func (s *msgStream) wholeBlock(at int) (*jsonObject, error) {
	block := s.data[at].object("content_block").clone()
	n := s.index(at)
	var text, thinking, signature, partial string
	deltas := false
	for i := at + 1; i < len(s.data); i++ {
		if s.typ(i) == "content_block_stop" && s.index(i) == n {
			break
		}
		if s.typ(i) != "content_block_delta" || s.index(i) != n {
			continue
		}
		d := s.data[i].object("delta")
		switch d.str("type") {
		case "text_delta":
			text += d.str("text")
		case "thinking_delta":
			thinking += d.str("thinking")
		case "signature_delta":
			signature += d.str("signature")
		case "input_json_delta":
			partial += d.str("partial_json")
			deltas = true
		}
	}
	switch block.str("type") {
	case "text":
		block.set("text", block.str("text")+text)
	case "thinking":
		block.set("thinking", block.str("thinking")+thinking)
		block.set("signature", block.str("signature")+signature)
	case "tool_use":
		if deltas && partial != "" {
			if !json.Valid([]byte(partial)) {
				return nil, fmt.Errorf("block %s input is not valid JSON: %w", n, ErrNotApplicable)
			}
			block.set("input", json.RawMessage(partial))
		}
	}
	return block, nil
}

// maxTokensCut ends the last tool_use inside its arguments (its first
// non-empty delta, halved when that alone is valid JSON), stops the block,
// and ends the message with stop_reason "max_tokens".
func maxTokensCut(s *msgStream) error {
	uses := s.toolUses()
	if len(uses) == 0 {
		return nil
	}
	last := uses[len(uses)-1]
	for _, i := range s.partials(last) {
		d := s.data[i].object("delta")
		piece := d.str("partial_json")
		if piece == "" {
			continue
		}
		if json.Valid([]byte(s.argumentsBefore(last, i) + piece)) {
			d.set("partial_json", halve(piece))
		}
		s.events, s.data = s.events[:i+1], s.data[:i+1]
		idx, _ := last.Int64()
		s.insert(i+1, obj("type", "content_block_stop", "index", json.Number(fmt.Sprint(idx))))
		s.insert(i+2, obj("type", "message_delta", "delta", obj("stop_reason", "max_tokens", "stop_sequence", nil),
			"usage", obj("output_tokens", json.Number("32"))))
		s.insert(i+3, obj("type", "message_stop"))
		return nil
	}
	return fmt.Errorf("the last call has no non-empty delta: %w", ErrNotApplicable)
}

// argumentsBefore joins block n's partial_json before position i.
func (s *msgStream) argumentsBefore(n json.Number, i int) string {
	var a string
	for _, j := range s.partials(n) {
		if j < i {
			a += s.data[j].object("delta").str("partial_json")
		}
	}
	return a
}

// halve is the first half of piece, cut at a rune boundary (at least one
// rune is cut off).
func halve(piece string) string {
	n := utf8.RuneCountInString(piece)
	return string([]rune(piece)[:n/2])
}
