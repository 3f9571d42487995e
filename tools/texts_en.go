package tools

// enTexts says what zhTexts says, in English.
var enTexts = catalog{
	unknownToolF: "There is no tool named %s. Available tools: %s",
	noToolsF:     "There is no tool named %s. No tools are available.",
	toolList:     ", ",
	failureF:     "%s: %s",
	badJSONF:     "the arguments are not valid JSON (%s); send one JSON object. The raw text starts with: %s",
	badArgsF:     "invalid arguments: %s.",
	problemSep:   "; ",
	nameSep:      ", ",
	notObjectF:   "the arguments must be a JSON object, got %s",
	missingF:     "missing required parameter %s",
	missingManyF: "missing required parameters %s",
	wrongTypeF:   "parameter %s must be %s, got %s",
	tooSmallF:    "parameter %s must be at least %s, got %s",
	tooLargeF:    "parameter %s must be at most %s, got %s",
	tooShortF:    "parameter %s must have at least %s characters, got %s",
	unknownF:     "unknown parameter %s (allowed: %s)",
	unknownManyF: "unknown parameters %s (allowed: %s)",
	noneAllowed:  "none",
	panicF:       "internal error in the tool: %v",
	canceled:     "canceled",
	typeNames: map[string]string{
		"string": "a string", "integer": "an integer", "number": "a number", "boolean": "a boolean",
		"object": "an object", "array": "an array", "null": "null",
	},

	truncNoteF: "\n…(middle cut: %d characters removed, %d in all; to get the middle, read again with an offset)…\n",

	outsideF:        "path %q is outside the workspace",
	nulF:            "path %q contains a NUL byte",
	notExistF:       `file %s does not exist; if unsure of the path, find it with glob first, e.g. {"pattern":"**/%s"}`,
	isDirF:          `%s is a directory, not a file; to list its files use glob, e.g. {"pattern":"%s"}`,
	notRegularF:     "%s is not a regular file (%s); it cannot be read",
	kindPipe:        "a named pipe",
	kindDevice:      "a device",
	kindSocket:      "a socket",
	kindOther:       "a special file",
	permissionF:     "permission denied reading %s",
	ioErrorF:        "reading %s failed: %s",
	patternOutsideF: "pattern %q points outside the workspace",
	patternNulF:     "pattern %q contains a NUL byte",
	badPatternF:     "invalid pattern %q: check that [ ] pair up and that \\ is followed by a character",
	dotDotF:         "pattern %q: .. may only appear before the first wildcard",

	readFileDescF: "Read one text file in the workspace and return its lines with line numbers. " +
		"Use it when you know the path and need to see the code; to find files by name use glob first, to find text use grep. " +
		"Reads %d lines from line 1 by default; use offset and limit to read another part. " +
		"The first line gives the range of lines read and the file's total; each following line is the line number, a tab and the line. " +
		"Lines over %d characters are cut; a binary file is reported as binary with no content; a result over %d characters loses its middle. " +
		`Example: {"path":"src/calc.js","offset":1,"limit":100}`,
	readPathDesc:     "Path of the file, relative to the workspace, with / separators, e.g. src/calc.js; a path that glob or grep writes in double quotes is passed as written, quotes included. Required; must stay inside the workspace.",
	readOffsetDesc:   "Line to start reading at, counting from 1. Default 1.",
	readLimitDescF:   "Maximum number of lines to read, 1 to %d (a larger limit reads %d). Default %d.",
	limitCapF:        "(limit %d is above the cap of %d lines per read)",
	headerF:          "%s (lines %d–%d of %d)",
	emptyFileF:       "%s (empty file, 0 lines)",
	moreLinesF:       "(remaining lines: %d; to continue, read again with offset=%d)",
	headerAtLeastF:   "%s (lines %d–%d of at least %d; the file is too large to count to its end)",
	moreAtLeastF:     "(remaining lines: at least %d; to continue, read again with offset=%d)",
	lineCutF:         "… (line too long; first %d characters shown)",
	binaryF:          "%s is a binary file (%d bytes); its content is not shown.",
	readCutF:         "(reading stopped after %d MiB, the limit of one read; the lines after line %d were not reached)",
	offsetUnreachedF: "offset %d was not reached: reading %s stopped after %d MiB, the limit of one read, after line %d",
	offsetPastF:      "offset %d is past the end of the file (lines in %s: %d)",

	globDesc: "List the files in the workspace whose paths match a pattern. " +
		"Use it to learn which files exist or where files of a kind live; to search file contents use grep. " +
		"The pattern is relative to the workspace, with / separators: ** spans any number of folders, * matches any characters within one folder, ? matches one character. " +
		"Skips the node_modules, .git and dist folders and does not follow symbolic links. " +
		"Returns relative paths sorted by path, one per line, at most limit of them, and says how many more were not shown; " +
		`a path holding a colon, a control character (such as a line break) or bytes that are not UTF-8 is written in double quotes with Go escapes (\n, \xff), and read_file accepts it as written; ` +
		"when nothing matches it says how many files the workspace holds in all. " +
		`Examples: {"pattern":"**/*.js"}, {"pattern":"test/**/*.test.js"}`,
	globPatternDesc: "Pattern for file paths, e.g. **/*.js or src/*.ts. Required; must stay inside the workspace.",
	globLimitDescF:  "Maximum number of paths to return, 1 to %d. Default %d.",
	globMoreF:       "(files not shown: %d more; use a more specific pattern)",
	globEmptyF:      "No files match %q. Files in the workspace: %d in all (not counting node_modules, .git and dist).",

	grepDescF: "Search the contents of the files in the workspace with a regular expression (RE2 syntax, matched line by line; start with (?i) to ignore case). " +
		"Use it to find where a name, a string or an error message appears; then use read_file to see the context. " +
		"Each hit is one line, path:line:content; at most %d hits, files in path order; " +
		"a path holding a colon, a control character or bytes that are not UTF-8 is written in double quotes with escapes, as glob writes it; " +
		"lines are cut to %d characters around the match; binary files and the node_modules, .git and dist folders are skipped. " +
		"Use the glob parameter to narrow the files first. " +
		`Example: {"pattern":"a / b","glob":"src/**/*.js"}`,
	grepPatternDesc: `Regular expression to search for (RE2 syntax), e.g. function\s+divide. Required.`,
	grepGlobDesc:    "Search only the files whose paths match this pattern, same syntax as the glob tool, e.g. **/*.js. Default: all files.",
	grepMoreF:       "(stopped at %d hits; there are more: make the pattern more specific or narrow the files with the glob parameter)",
	grepFileCutF:    "(files searched only in part: %d; each file is searched up to %d MiB; the first such file is %s)",
	grepCallCutF:    "(stopped after reading %d MiB in all, the limit of one search; files after %s were not searched: narrow the files with the glob parameter)",
	grepNoneF:       "No lines match %q (files searched: %d).",
	grepNoneGlobF:   "No lines match %q (files searched: %d, those matching %q).",
	badRegexpF:      "invalid regular expression %q: %s",
	perlOnlyHint:    " (RE2 has no lookahead, lookbehind or backreferences: rewrite the pattern without them)",
}
