package gemini

import (
	"fmt"
	"strconv"
	"strings"
)

// pathSeg is one step of a partial argument's path: a member name or an
// array index.
type pathSeg struct {
	name    string
	index   int
	isIndex bool
}

// parseJSONPath reads the singular JSON paths partialArgs use (RFC 9535's
// normalized paths and the dot shorthand): $ then any of .name, ['name'] or
// ["name"] (backslash escapes inside), and [N]. A path without the leading
// $ is read from the root as if it had one ("city" is $.city): the field is
// documented as RFC 9535 but producers that drop the $ exist.
func parseJSONPath(p string) ([]pathSeg, error) {
	rest := p
	if strings.HasPrefix(rest, "$") {
		rest = rest[1:]
	} else if rest != "" && rest[0] != '.' && rest[0] != '[' {
		rest = "." + rest
	}
	var segs []pathSeg
	bad := func(why string) ([]pathSeg, error) {
		return nil, fmt.Errorf("partialArgs path %q: %s", p, why)
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return bad("a '.' with no member name after it")
			}
			segs = append(segs, pathSeg{name: rest[:end]})
			rest = rest[end:]
		case '[':
			if len(rest) > 1 && (rest[1] == '\'' || rest[1] == '"') {
				name, n, ok := quotedName(rest[1:])
				if !ok || !strings.HasPrefix(rest[1+n:], "]") {
					return bad("a quoted member name that does not close with its quote and ']'")
				}
				segs = append(segs, pathSeg{name: name})
				rest = rest[1+n+1:]
				continue
			}
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return bad("a '[' without its ']'")
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || i < 0 || rest[1] == '+' || (end > 2 && rest[1] == '0') {
				return bad(fmt.Sprintf("%q is not an array index", rest[1:end]))
			}
			segs = append(segs, pathSeg{index: i, isIndex: true})
			rest = rest[end+1:]
		default:
			return bad(fmt.Sprintf("unexpected %q", rest[:1]))
		}
	}
	return segs, nil
}

// quotedName reads a quoted member name at the start of s (its quote
// first) and returns it with the bytes it took, quotes included.
func quotedName(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == q:
			return b.String(), i + 1, true
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				r, err := strconv.ParseUint(s[i+1:min(i+5, len(s))], 16, 32)
				if err != nil || i+5 > len(s) {
					return "", 0, false
				}
				b.WriteRune(rune(r))
				i += 4
			default: // \\ \' \" \/ stand for themselves
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// joinSegs prints segs back as a path after $, for messages.
func joinSegs(segs []pathSeg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.isIndex {
			fmt.Fprintf(&b, "[%d]", s.index)
		} else if strings.ContainsAny(s.name, ".[]'\"\\ ") || s.name == "" {
			fmt.Fprintf(&b, "[%s]", strconv.Quote(s.name))
		} else {
			b.WriteString("." + s.name)
		}
	}
	return b.String()
}
