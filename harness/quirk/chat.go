package quirk

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// chatQuirks are the transforms of chat-completions streams and of any SSE
// stream (crlf, comments).
func chatQuirks() []Quirk {
	chat := chat.Format.Name
	qs := []Quirk{
		{Name: "index_plus_1", compose: aspects{edits: aIndex}, streaming: pieceForm(shiftIndex(+1)), API: chat, Benign: true, Apply: callEdit(eachPiece(shiftIndex(+1))),
			Doc: "tool_calls[].index counts from 1 (Anthropic content-block index passed through: litellm #5231, cline #13123)"},
		{Name: "index_minus_1", compose: aspects{edits: aIndex}, streaming: pieceForm(shiftIndex(-1)), API: chat, Benign: true, Apply: callEdit(eachPiece(shiftIndex(-1))),
			Doc: "tool_calls[].index counts from -1 (bedrock-access-gateway PR #247)"},
		{Name: "interleaved_calls", compose: aspects{edits: aOrder}, streaming: chatCalls, API: chat, Benign: true, Apply: callEdit(interleave),
			Doc: "pieces of parallel calls alternate, each keeping its index (the OpenAI protocol allows it)"},
		{Name: "args_one_rune", OnArguments: true, compose: aspects{edits: aPieces, rewrites: resplitRewrites}, streaming: chatCalls, API: chat, Benign: true, Apply: callEdit(resplitArgs(oneRune)),
			Doc: "arguments arrive one rune per piece (Kimi via OpenRouter)"},
		{Name: "args_split_escapes", OnArguments: true, compose: aspects{edits: aPieces, rewrites: resplitRewrites}, streaming: chatCalls, API: chat, Benign: true, Apply: callEdit(resplitArgs(insideEscapes)),
			Doc: `arguments split inside \" \\ and \uXXXX escapes (Azure, Anthropic fine-grained pieces)`},
		{Name: "ids_dropped", compose: aspects{edits: aIDs}, streaming: pieceForm(dropID), API: chat, Benign: true, DropsIDs: true, Apply: callEdit(eachPiece(dropID)),
			Doc: `no id on the first call, "" on the second (vLLM #18412, Gemini compat openai-dotnet #428)`},
		{Name: "id_every_piece", compose: aspects{edits: aIDs | aPieceIDs}, streaming: pieceForm(repeatField("id")), API: chat, Benign: true, Apply: callEdit(eachPiece(repeatField("id"))),
			Doc: "the call's id repeated on every piece (LiteLLM proxy #20480)"},
		{Name: "name_every_piece", compose: aspects{edits: aNames | aPieceNames}, streaming: pieceForm(repeatField("name")), API: chat, Benign: true, Apply: callEdit(eachPiece(repeatField("name"))),
			Doc: "the call's name repeated on every piece (llama.cpp #13774, MiniMax via NIM)"},
		{Name: "no_index", compose: aspects{edits: aIndex, needs: aIDs | aOrder}, streaming: chatCalls, API: chat, Benign: true, Apply: callEdit(noIndex),
			Doc: "no index on any piece, calls one after the other (Gemini compat, OpenMAIC #1556)"},
		{Name: "all_index_0", compose: aspects{edits: aIndex, needs: aIDs | aOrder, closes: callAspects}, streaming: chatCalls, API: chat, Benign: true, Apply: callEdit(allIndexZero),
			Doc: "every call at index 0 with distinct ids (Ollama #15457)"},
		{Name: "finish_stop", compose: aspects{edits: aFinish}, streaming: chatCalls, API: chat, Benign: true, Apply: callEdit(finishStop),
			Doc: `finish_reason "stop" although calls were streamed (Gemini compat, python-genai #2868)`},
		{Name: "crlf", compose: aspects{edits: aLineEnds}, streaming: eachEvent, Benign: true, Apply: crlf,
			Doc: "CRLF line endings (Azure, sse-starlette; OrcaRouter PR #98)"},
		{Name: "comments", compose: aspects{edits: aComments}, streaming: streamForm{custom: newCommentsEditor, holds: "nothing"}, Benign: true, Apply: comments,
			Doc: "': OPENROUTER PROCESSING' first, ': keepalive' lines between events and after [DONE] (OpenRouter)"},
		{Name: "no_done", compose: aspects{edits: aEndMarker}, streaming: eachEvent, API: chat, Benign: true, Apply: noDone,
			Doc: "no data: [DONE] after the finish chunk (Cerebras, Perplexity; bifrost #2910)"},
		{Name: "content_parts", compose: aspects{edits: aContent}, streaming: eachEvent, API: chat, Benign: true, Apply: contentParts,
			Doc: `delta.content as an array of typed parts, [{"type":"text","text":...}] (Mistral, Databricks: litellm #16272, databricks/appkit #559)`},
		{Name: "several_choices", compose: aspects{edits: aChoices, closes: callAspects | aContent | aFinish | aChoices}, streaming: streamForm{custom: newSeveralChoicesEditor, holds: "the answer's first chunk, then each chunk until the next"}, API: chat, Benign: true, Apply: severalChoices, Markers: []string{strings.TrimSpace(decoyText), "decoy/**"},
			Doc: "a second answer (choice 1, with a call of its own) interleaved with the stream's (n > 1: litellm #35793)"},
		{Name: "bad_args", compose: aspects{edits: aArgs}, streaming: chatCalls, API: chat, Benign: false, Apply: callEdit(badArgs),
			Doc: "the first call's arguments lose their last '}' and are not valid JSON (crush #3153)"},
	}
	return append(qs, chatPieceQuirks(chat)...)
}

// callEdit adapts an edit of the parsed stream into an Apply function.
func callEdit(edit func(s *quirkStream, groups []*callGroup) error) func([]byte, int64) ([]byte, error) {
	return func(body []byte, _ int64) ([]byte, error) {
		s, err := parseQuirkStream(body)
		if err != nil {
			return nil, err
		}
		if err := edit(s, s.calls()); err != nil {
			return nil, err
		}
		return s.bytes("\n")
	}
}

// shiftIndex moves every piece's index by delta (a call with no numeric
// index: the quirk does not apply).
func shiftIndex(delta int64) pieceEdit {
	return func(tc, _ *jsonObject, g *callGroup, _ int) (bool, error) {
		n, err := g.index.Int64()
		if err != nil {
			return false, fmt.Errorf("call %s has no numeric index: %w", g.id, ErrNotApplicable)
		}
		tc.set("index", json.Number(fmt.Sprint(n+delta)))
		return true, nil
	}
}

// interleave deals the calls' pieces out in turn (A1 B1 A2 B2 A3 ...) into
// the positions the pieces held.
func interleave(s *quirkStream, groups []*callGroup) error {
	var slots []int
	for i, it := range s.items {
		if it.toolCall() != nil {
			slots = append(slots, i)
		}
	}
	var order []*streamItem
	for round := 0; len(order) < len(slots); round++ {
		for _, g := range groups {
			if round < len(g.items) {
				order = append(order, s.items[g.items[round]])
			}
		}
	}
	for k, i := range slots {
		s.items[i] = order[k]
	}
	return nil
}

// resplitRewrites is what resplitting a call writes anew: its pieces are
// replaced by new ones in its first piece's place, so ids and names that
// an earlier part put on its later pieces are gone and pieces that an
// earlier part interleaved come together again.
const resplitRewrites = aOrder | aPieceIDs | aPieceNames

func resplitArgs(split func(string) []string) func(*quirkStream, []*callGroup) error {
	return func(s *quirkStream, groups []*callGroup) error {
		// Later groups' positions shift when an earlier call grows, so
		// re-group after each call.
		for n := range groups {
			g := s.calls()[n]
			s.resplit(g, split(s.arguments(g)))
		}
		return nil
	}
}

func oneRune(args string) []string {
	var out []string
	for _, r := range args {
		out = append(out, string(r))
	}
	return out
}

// insideEscapes cuts args right after every backslash of an escape and
// between the second and third hex digit of \uXXXX, so no escape arrives
// whole. Arguments with no escape are cut after every '"' instead, so the
// pieces still end inside strings.
func insideEscapes(args string) []string {
	var cuts []int
	for i := 0; i < len(args); i++ {
		if args[i] != '\\' || i+1 >= len(args) {
			continue
		}
		cuts = append(cuts, i+1)
		if args[i+1] == 'u' && i+4 < len(args) {
			cuts = append(cuts, i+4)
		}
		i++ // the escaped character is not an escape of its own
	}
	if len(cuts) == 0 {
		for i := 0; i < len(args)-1; i++ {
			if args[i] == '"' {
				cuts = append(cuts, i+1)
			}
		}
	}
	var out []string
	start := 0
	for _, c := range cuts {
		out = append(out, args[start:c])
		start = c
	}
	if start < len(args) {
		out = append(out, args[start:])
	}
	return out
}

// dropID removes the id of even-numbered calls and sets "" on odd ones.
func dropID(tc, _ *jsonObject, _ *callGroup, n int) (bool, error) {
	if _, ok := tc.get("id"); !ok {
		return false, nil
	}
	if n%2 == 0 {
		tc.del("id")
	} else {
		tc.set("id", "")
	}
	return true, nil
}

// repeatField copies the call's id ("id") or function name ("name") onto
// every piece of the call after its first.
func repeatField(field string) pieceEdit {
	return func(tc, head *jsonObject, _ *callGroup, _ int) (bool, error) {
		if tc == head {
			return false, nil
		}
		if field == "id" {
			tc.setAfter("index", "id", head.str("id"))
		} else if fn := tc.object("function"); fn != nil {
			fn.setAfter("", "name", head.object("function").str("name"))
		}
		return true, nil
	}
}

// noIndex removes every index. Without an index only a new id tells calls
// apart, so each call must come whole and start with its id.
func noIndex(s *quirkStream, groups []*callGroup) error {
	if err := needSequential(s, groups); err != nil {
		return err
	}
	for _, g := range groups {
		for _, i := range g.items {
			s.items[i].toolCall().del("index")
			s.items[i].dirty = true
		}
	}
	return nil
}

// allIndexZero puts every call at index 0; a new id and name at a used
// index opens a new call, so the calls must come one after the other.
func allIndexZero(s *quirkStream, groups []*callGroup) error {
	if err := needSequential(s, groups); err != nil {
		return err
	}
	for _, g := range groups {
		for _, i := range g.items {
			s.items[i].toolCall().set("index", json.Number("0"))
			s.items[i].dirty = true
		}
	}
	return nil
}

func needSequential(s *quirkStream, groups []*callGroup) error {
	if !contiguous(groups, s) {
		return fmt.Errorf("calls are interleaved: %w", ErrNotApplicable)
	}
	for n, g := range groups {
		head := s.items[g.items[0]].toolCall()
		if head.str("id") == "" || head.object("function").str("name") == "" {
			return fmt.Errorf("call %d does not start with its id and name: %w", n+1, ErrNotApplicable)
		}
	}
	return nil
}

func finishStop(s *quirkStream, groups []*callGroup) error {
	if len(groups) == 0 {
		return nil
	}
	for _, it := range s.items {
		if it.chunk == nil {
			continue
		}
		for _, c := range it.chunk.array("choices") {
			if choice, ok := c.(*jsonObject); ok && choice.str("finish_reason") == "tool_calls" {
				choice.set("finish_reason", "stop")
				it.dirty = true
			}
		}
	}
	return nil
}

// badArgs drops the last '}' of the first call's arguments.
func badArgs(s *quirkStream, groups []*callGroup) error {
	if len(groups) == 0 {
		return nil
	}
	g := groups[0]
	for k := len(g.items) - 1; k >= 0; k-- {
		it := s.items[g.items[k]]
		fn := it.toolCall().object("function")
		args := fn.str("arguments")
		if j := strings.LastIndex(args, "}"); j >= 0 {
			fn.set("arguments", args[:j]+args[j+1:])
			it.dirty = true
			return nil
		}
	}
	return fmt.Errorf("first call's arguments have no '}': %w", ErrNotApplicable)
}

func noDone(body []byte, _ int64) ([]byte, error) {
	var out []sse.Event
	for _, ev := range sse.Parse(body) {
		if ev.HasData && strings.TrimSpace(ev.Data) == "[DONE]" {
			continue
		}
		out = append(out, ev)
	}
	return sse.Format(out, "\n"), nil
}
