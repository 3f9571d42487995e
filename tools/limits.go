package tools

// Every limit the tools apply is defined here, once. The schemas' bounds and
// the texts the model reads (both locales) are filled in from these
// constants, so a change here changes them all.
const (
	// MaxResultChars is the most runes a tool result may hold before its
	// middle is cut (Truncate).
	MaxResultChars = 8000

	readMaxLines  = 400 // lines read_file returns by default, and at most per call
	maxLineChars  = 500 // runes read_file keeps of a long line
	globMaxPaths  = 200 // paths glob returns by default, and at most
	grepMaxHits   = 50  // hits grep returns
	grepLineChars = 120 // runes grep shows of a hit's line
)
