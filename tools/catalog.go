package tools

// catalog holds every model-facing text of one locale. Fields ending in F are
// fmt formats; their verbs are listed beside each field. A test checks that the
// two locales use the same verbs in the same order.
type catalog struct {
	// Execute-level failures.
	unknownToolF string // name, list of tools
	noToolsF     string // name
	toolList     string // separator between tool names
	failureF     string // tool name, message
	badJSONF     string // parser message, start of the raw text
	badArgsF     string // list of problems
	problemSep   string // separator between problems
	nameSep      string // separator inside a list of parameter names
	notObjectF   string // JSON type name
	missingF     string // names (one)
	missingManyF string // names (several)
	wrongTypeF   string // param, wanted type name, got value
	tooSmallF    string // param, minimum, got value
	tooLargeF    string // param, maximum, got value
	tooShortF    string // param, min length, got value (all %s)
	unknownF     string // names (one), allowed names
	unknownManyF string // names (several), allowed names
	noneAllowed  string // the allowed list when a tool takes no parameters
	panicF       string // panic value
	canceled     string
	typeNames    map[string]string

	// Truncation note: removed, total.
	truncNoteF string

	// Paths and files.
	outsideF        string // path as given (%q)
	nulF            string // path as given (%q)
	notExistF       string // rel path, base name
	isDirF          string // rel path, glob pattern
	notRegularF     string // rel path, kind
	kindPipe        string
	kindDevice      string
	kindSocket      string
	kindOther       string
	permissionF     string // rel path
	ioErrorF        string // rel path, error text
	patternOutsideF string // pattern (%q)
	patternNulF     string // pattern (%q)
	badPatternF     string // pattern (%q)
	dotDotF         string // pattern (%q)

	// read_file.
	readFileDescF    string // readMaxLines, maxLineChars, MaxResultChars
	readPathDesc     string
	readOffsetDesc   string
	readLimitDescF   string // readMaxLines, readMaxLines, readMaxLines
	limitCapF        string // limit asked, readMaxLines
	headerF          string // path, first, last, total
	emptyFileF       string // path
	moreLinesF       string // remaining, next offset
	headerAtLeastF   string // as headerF, when the file was too large to count to its end
	moreAtLeastF     string // as moreLinesF, likewise
	lineCutF         string // max chars
	binaryF          string // path, size in bytes
	offsetPastF      string // offset, path, total lines
	readCutF         string // MiB per read, last line shown
	offsetUnreachedF string // offset, path, MiB per read, lines read

	// glob.
	globDesc        string
	globPatternDesc string
	globLimitDescF  string // globMaxPaths, globMaxPaths
	globMoreF       string // count not shown
	globEmptyF      string // pattern (%q), total files

	// grep.
	grepDescF       string // grepMaxHits, grepLineChars
	grepPatternDesc string
	grepGlobDesc    string
	grepMoreF       string // hit limit
	grepFileCutF    string // files cut, MiB per file, first such file
	grepCallCutF    string // MiB per call, last file searched
	grepNoneF       string // pattern (%q), files searched
	grepNoneGlobF   string // pattern (%q), files searched, glob (%q)
	badRegexpF      string // pattern (%q), reason
	perlOnlyHint    string // appended when the pattern uses lookaround or backreferences
}
