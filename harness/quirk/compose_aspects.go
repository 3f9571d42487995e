package quirk

import (
	"math/bits"
	"strings"
)

// An aspect is one thing of a stream that a quirk may rewrite: its line
// ends, its calls' ids, the way its arguments are cut into pieces... Each
// quirk of a format's list says, as data, which aspects it edits, needs
// and rewrites, so that Compose can tell which quirks compose (see
// composeRefusal) without a list of pairs.
type aspect uint32

const (
	aLineEnds    aspect = 1 << iota // how each line ends (crlf, gemini_lf)
	aComments                       // ": ..." comment lines
	aEventLines                     // "event: ..." lines
	aEndMarker                      // the end marker: [DONE], message_stop
	aIndex                          // the calls' (or blocks') index
	aIDs                            // the calls' ids
	aNames                          // how the calls' names are sent
	aPieces                         // how the calls' arguments are cut into pieces or events
	aArgs                           // the calls' argument text itself
	aOrder                          // the order of the calls' and blocks' events
	aFinish                         // the finish or stop reason
	aContent                        // how the text content is written
	aChoices                        // a second answer beside the first
	aStart                          // the answer's first events (message_start, response.created)
	aUsage                          // the token counts
	aPings                          // ping events
	aUnknown                        // event types no client knows
	aEmpty                          // events with nothing in them
	aBlocks                         // the events that open and close blocks or items
	aInput                          // content_block_start's input
	aCompleted                      // response.completed's output
	aSeq                            // the sequence numbers
	aResponseIDs                    // the response's id
	aReasoning                      // reasoning text
	aEnd                            // the stream's end: cut, or an error in its place
	aPieceIDs                       // ids on a call's pieces after its first
	aPieceNames                     // names on a call's pieces after its first
	aFraming                        // the framed messages themselves (Bedrock's event stream)

	aspectCount = iota
)

// aspectNames are the words an error uses for each aspect, in bit order.
var aspectNames = [aspectCount]string{
	"line ends", "comment lines", "event: lines", "the end marker", "call indexes",
	"call ids", "call names", "argument pieces", "argument text", "event order",
	"the finish reason", "text content", "choices", "the first events", "usage",
	"pings", "unknown events", "empty events", "block events", "block start input",
	"response.completed output", "sequence numbers", "response ids", "reasoning",
	"the stream's end", "ids on later pieces", "names on later pieces", "the framing",
}

// lineAspects are those of the SSE lines alone: what may follow a part
// that ends the stream (its closes leave them out).
const lineAspects = aLineEnds | aComments

// callAspects are those of the calls.
const callAspects = aIndex | aIDs | aNames | aPieces | aArgs | aOrder | aPieceIDs | aPieceNames

// allAspects is every aspect.
const allAspects = aspect(1)<<aspectCount - 1

// afterEnd is what a part that ends the stream (aEnd) closes: every later
// part's edit could reach past the end it made (args_repeated_at_end would
// send a cut call whole again), so only the lines may still change.
const afterEnd = allAspects &^ lineAspects

// String names the aspects of a, in bit order, joined by "and".
func (a aspect) String() string {
	var names []string
	for a != 0 {
		i := bits.TrailingZeros32(uint32(a))
		names = append(names, aspectNames[i])
		a &^= 1 << i
	}
	return strings.Join(names, " and ")
}

// aspects is what a quirk edits in a stream, as Compose reads it.
type aspects struct {
	// edits: what the quirk changes. Two parts of a composition that edit
	// the same aspect are refused: the second would edit the first's edit
	// (ids_dropped then id_every_piece), not the clean stream's.
	edits aspect
	// needs: what the quirk needs as the clean stream has it (no_index
	// tells calls apart by their ids only): no other part may edit it.
	needs aspect
	// rewrites: what the quirk writes anew wholesale, undoing an earlier
	// part's edit of it. Every quirk writes every line end again (All sets
	// aLineEnds), so a line-end quirk must be the last part; Gemini's
	// writes drop comment lines, Responses' renumber sequence numbers.
	rewrites aspect
	// closes: what no later part may edit (a stream cut, or a second
	// answer whose call a later call edit would edit as the answer's own).
	closes aspect
}
