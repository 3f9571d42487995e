package quirk

import "errors"

// ErrNotApplicable is returned by a transform whose shape cannot be
// produced from the stream it was given without changing what the stream
// means (no_index on interleaved calls, for instance).
var ErrNotApplicable = errors.New("quirk does not apply to this stream")

// A Quirk turns a clean SSE stream of one wire format into one broken
// shape that real gateways send (docs/quirks.md lists them with
// where they were seen).
type Quirk struct {
	// Name is the transform's stable name (file and scenario names use it).
	Name string
	// Doc says in one line what the transform does and where it was seen.
	Doc string
	// Benign means a correct accumulator merges the transformed stream into
	// the same turn: same text, same calls (name and arguments) in the same
	// order, same tool-turn verdict. Ids may differ when DropsIDs is set.
	Benign bool
	// DropsIDs means the calls lose their ids, so the accumulator
	// synthesizes call_<index>_<position> ones (see ApplyToCassette).
	DropsIDs bool
	// Warns means a correct merger reports a warning for the shape (the
	// turn is still the same): agentvcr run prints it on stderr.
	Warns bool
	// Reasoning means the shape adds reasoning text that a correct merger
	// keeps apart from the answer: agentvcr run shows it as thinking lines,
	// and the transcript is the clean one once those lines are left out.
	Reasoning bool
	// Echoes means the transform adds what a correct client sends back in
	// its next request (a thought signature where the clean stream has
	// none): the requests after it are not the clean run's, so a check that
	// compares requests with a recording's (conform's recorded mode) leaves
	// it out.
	Echoes bool
	// OnArguments means the shape lives in the calls' argument text alone
	// (cut into pieces, repeated, sent only at the end): on calls whose
	// arguments are "{}" it has next to nothing to work on, and an agent
	// that loses or garbles the text can still end with the right "{}".
	// conform skips such a case as vacuous rather than pass it by accident.
	OnArguments bool
	// Markers are texts the transform adds that belong to no answer (a
	// second choice's words): a correct agent never prints them or sends
	// them back, so conform fails a case where one shows up.
	Markers []string
	// API is the wire format the transform edits (agent.Format.Name), "" when
	// it edits any SSE stream (line ends, comments). Every quirk All returns
	// refuses a stream or cassette in another format with ErrNotApplicable.
	API string
	// Apply transforms one SSE body. The seed picks the positions where a
	// transform has a choice; the same body and seed give the same bytes.
	// A body without tool calls passes through the call transforms as is.
	Apply func(body []byte, seed int64) ([]byte, error)

	// streaming is how Stream applies it to an answer as it arrives.
	streaming streamForm
	// compose is what it edits, for Compose to tell which quirks compose.
	compose aspects
	// parts are a composition's quirks, in the order they apply (Compose);
	// nil for a quirk of All.
	parts []Quirk
}
