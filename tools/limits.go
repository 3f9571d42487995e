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

// Byte budgets: what one call may read, whatever the files hold (a sparse
// file of 8 KB of text and a 1 TiB hole reads as endless zeros). Every tool
// also checks its context between files and between buffers inside a file.
// glob reads no file contents: its walk checks the context in every folder.
// They are variables only so that a test can raise them to prove that
// cancellation alone stops a read.
var (
	// fileByteBudget is the most bytes read from one file: grep searches
	// a file's first fileByteBudget bytes; read_file reads at most that far
	// to reach and read the lines asked for.
	fileByteBudget int64 = 64 << 20
	// grepByteBudget is the most bytes one grep reads in all: no file is
	// started past it (files already in flight finish).
	grepByteBudget int64 = 1 << 30
)

const (
	// countBudget is how many bytes past the lines returned read_file scans
	// to count the file's lines; past it the count is a lower bound.
	countBudget = 16 << 20
	// grepLineBytes is how much of one line grep searches; the rest of the
	// line is skipped.
	grepLineBytes = 1 << 20
)
