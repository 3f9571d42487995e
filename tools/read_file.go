package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

type readFileArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

// readFileTool reads one text file with line numbers. Its description and
// parameter descriptions are readFileDescF, readPathDesc, readOffsetDesc and
// readLimitDescF in texts_zh.go / texts_en.go, their limits filled in from
// limits.go. A limit above readMaxLines reads readMaxLines lines and says so.
func readFileTool(lang Lang) Tool {
	t := lang.texts()
	return Tool{
		Name:        "read_file",
		Description: fmt.Sprintf(t.readFileDescF, readMaxLines, maxLineChars, MaxResultChars),
		Parameters: objectSchema([]string{"path"},
			param{"path", "string", t.readPathDesc, `"minLength":1`},
			param{"offset", "integer", t.readOffsetDesc, `"minimum":1`},
			param{"limit", "integer", fmt.Sprintf(t.readLimitDescF, readMaxLines, readMaxLines, readMaxLines), `"minimum":1`},
		),
		ReadOnly: true,
		Run: func(ctx context.Context, ws *Workspace, raw json.RawMessage) (string, error) {
			a := readFileArgs{Offset: 1, Limit: readMaxLines}
			if err := json.Unmarshal(raw, &a); err != nil {
				return "", err
			}
			return readFile(ctx, ws, t, a)
		},
	}
}

// readFile returns a header, then lines offset..offset+limit-1 as
// "<number right-aligned to the widest shown>\t<line>", then a note when
// lines remain. The rest of the file is streamed to count its lines, up to
// countBudget bytes (past it the header gives a lower bound); memory holds
// only the lines returned.
func readFile(ctx context.Context, ws *Workspace, t *catalog, a readFileArgs) (string, error) {
	asked := a.Limit
	a.Limit = min(a.Limit, readMaxLines)
	rel, err := ws.Resolve(readPath(a.Path))
	if err != nil {
		return "", t.resolveFailure(err, a.Path)
	}
	f, info, err := ws.openRegular(rel)
	if err != nil {
		return "", t.fileFailure(err, rel, info)
	}
	defer f.Close()

	br := bufio.NewReaderSize(f, readBufSize)
	if isBinary(br) {
		return fmt.Sprintf(t.binaryF, showPath(rel), info.Size()), nil
	}
	lr := &lineReader{br: br, keep: (maxLineChars + 1) * utf8.UTFMax, budget: fileByteBudget, stop: ctx.Err}
	var lines []string
	n := 0 // lines read so far
	spent := false
	for len(lines) < a.Limit {
		want := n+1 >= a.Offset
		line, cut, ok, err := lr.next(want)
		if errors.Is(err, errReadBudget) {
			spent = true
			break
		}
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return "", err
		}
		if err != nil {
			return "", t.fileFailure(err, rel, info)
		}
		if !ok {
			break
		}
		n++
		if n%4096 == 0 && ctx.Err() != nil {
			return "", ctx.Err()
		}
		if want {
			s, cutRunesToo := cutRunes(line, maxLineChars)
			if cut || cutRunesToo {
				s += fmt.Sprintf(t.lineCutF, maxLineChars)
			}
			lines = append(lines, s)
		}
	}
	if spent {
		return budgetSpent(t, rel, a, lines, n)
	}
	rest, counted, err := countLines(br, countBudget, ctx.Err)
	if err != nil {
		return "", err
	}
	total := n + rest
	if total == 0 {
		return fmt.Sprintf(t.emptyFileF, showPath(rel)), nil
	}
	if len(lines) == 0 {
		return "", failf(nil, t.offsetPastF, a.Offset, showPath(rel), total)
	}
	last := a.Offset + len(lines) - 1
	width := len(strconv.Itoa(last))
	var b strings.Builder
	header, more := t.headerF, t.moreLinesF
	if !counted {
		header, more = t.headerAtLeastF, t.moreAtLeastF
	}
	fmt.Fprintf(&b, header, showPath(rel), a.Offset, last, total)
	for i, s := range lines {
		fmt.Fprintf(&b, "\n%*d\t%s", width, a.Offset+i, s)
	}
	if total > last {
		if asked > a.Limit {
			b.WriteByte('\n')
			fmt.Fprintf(&b, t.limitCapF, asked, readMaxLines)
		}
		b.WriteByte('\n')
		fmt.Fprintf(&b, more, total-last, last+1)
	}
	return b.String(), nil
}

// budgetSpent is the result when fileByteBudget ran out before the lines
// asked for were read (a line that never ends, a sparse file's hole): the
// complete lines read so far, and a note saying where reading stopped.
func budgetSpent(t *catalog, rel string, a readFileArgs, lines []string, n int) (string, error) {
	mib := fileByteBudget >> 20
	if len(lines) == 0 {
		return "", failf(errReadBudget, t.offsetUnreachedF, a.Offset, showPath(rel), mib, n)
	}
	last := a.Offset + len(lines) - 1
	width := len(strconv.Itoa(last))
	var b strings.Builder
	fmt.Fprintf(&b, t.headerAtLeastF, showPath(rel), a.Offset, last, n)
	for i, s := range lines {
		fmt.Fprintf(&b, "\n%*d\t%s", width, a.Offset+i, s)
	}
	b.WriteByte('\n')
	fmt.Fprintf(&b, t.readCutF, mib, last)
	return b.String(), nil
}
