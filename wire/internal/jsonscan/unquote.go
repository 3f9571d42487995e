package jsonscan

import (
	"bytes"
	"unicode/utf8"
)

// AppendUnquoted appends the decoded text of the JSON string literal q (quotes
// included; already validated by the decoder) to dst. Invalid surrogates
// become U+FFFD, as encoding/json does; other bytes are copied as they are.
func AppendUnquoted(dst, q []byte) []byte {
	s := q[1 : len(q)-1]
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		s = s[i:]
		if len(s) < 2 {
			return append(dst, s...)
		}
		switch c := s[1]; c {
		case 'b':
			dst, s = append(dst, '\b'), s[2:]
		case 'f':
			dst, s = append(dst, '\f'), s[2:]
		case 'n':
			dst, s = append(dst, '\n'), s[2:]
		case 'r':
			dst, s = append(dst, '\r'), s[2:]
		case 't':
			dst, s = append(dst, '\t'), s[2:]
		case 'u':
			var r rune
			r, s = unquoteRune(s)
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst, s = append(dst, c), s[2:]
		}
	}
}

// unquoteRune decodes the \uXXXX escape (or surrogate pair) at the start of s.
func unquoteRune(s []byte) (rune, []byte) {
	r := hex4(s[2:])
	if r < 0 {
		return 0xFFFD, s[2:]
	}
	s = s[6:]
	if r < 0xD800 || r > 0xDFFF {
		return r, s
	}
	if r < 0xDC00 && len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
		if lo := hex4(s[2:]); lo >= 0xDC00 && lo <= 0xDFFF {
			return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), s[6:]
		}
	}
	return 0xFFFD, s
}

func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
