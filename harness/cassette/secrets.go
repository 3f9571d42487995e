package cassette

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// Secrets are strings a recording must never write: API keys, tokens, the
// values of auth headers. It is the one redaction and scan path of every
// recording: Cassette records through it, and a recording proxy can use it
// alone:
//
//	secrets := cassette.Secrets{key}
//	secrets = append(secrets, cassette.HeaderSecrets(req.Header)...)
//	err := secrets.RedactInteraction(interaction) // before saving
//	err = secrets.ScanFile(path)                  // after saving: fails closed
//
// Empty strings are ignored. Secrets shorter than MinBase64Secret bytes are
// looked for as written, escaped and encoded, but not inside base64 (a short
// string's base64 core would match by chance).
type Secrets []string

// MinBase64Secret is the shortest secret looked for inside base64 text.
const MinBase64Secret = 12

// number is a secret's place in messages: its 1-based index in s, empty
// strings included, so "secret 1" is the first one the caller gave.
func (s Secrets) number(sec string) int {
	return slices.Index(s, sec) + 1
}

// list returns the non-empty secrets without repeats, longest first, so that
// a secret containing another is replaced whole.
func (s Secrets) list() []string {
	var out []string
	for _, sec := range s {
		if sec != "" && !slices.Contains(out, sec) {
			out = append(out, sec)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// forms are the spellings of sec that Scrub replaces as text and the scan
// looks for: as written, escaped for a URL query and a URL path, and the
// cores of its base64 encodings (see base64Cores).
func forms(sec string) []string {
	out := []string{sec}
	for _, f := range []string{url.QueryEscape(sec), url.PathEscape(sec)} {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return append(out, base64Cores(sec)...)
}

// base64Cores returns, for the standard and the URL alphabets and for the
// three alignments sec can have inside a longer base64 text, the run of
// characters that encodes only bytes of sec: whatever surrounds sec in the
// encoded data, its base64 text contains one of them. None for a secret
// shorter than MinBase64Secret.
func base64Cores(sec string) []string {
	if len(sec) < MinBase64Secret {
		return nil
	}
	var out []string
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for pad := range 3 {
			text := enc.EncodeToString(append(make([]byte, pad), sec...))
			start := (pad*8 + 5) / 6        // first character with no padding bits
			end := (pad + len(sec)) * 8 / 6 // past the last with only secret bits
			if core := text[start:end]; !slices.Contains(out, core) {
				out = append(out, core)
			}
		}
	}
	return out
}

// Scrub returns text with every secret replaced by REDACTED: in the forms
// listed by forms, and inside the JSON string literals of text (a whole
// JSON document, or SSE "data:" lines holding JSON), however the literal
// escapes it ("\u0073k-…"): such a literal is decoded, scrubbed and written
// back escaped as encoding/json escapes; everything else keeps its bytes.
// What Scrub cannot rewrite (a secret split across two stream events, or
// partly percent-encoded) is left to the scan, which fails closed.
func (s Secrets) Scrub(text string) string {
	secrets := s.list()
	if len(secrets) == 0 {
		return text
	}
	if strings.Contains(text, `\`) {
		text = scrubJSON(text, secrets)
	}
	for _, sec := range secrets {
		for _, f := range forms(sec) {
			text = strings.ReplaceAll(text, f, redacted)
		}
	}
	return text
}

// scrubJSON rewrites the escaped JSON string literals that decode to a text
// holding a secret, in text as a whole JSON document or line by line.
func scrubJSON(text string, secrets []string) string {
	if json.Valid([]byte(text)) {
		return scrubLiterals(text, secrets)
	}
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		prefix := ""
		if rest, ok := strings.CutPrefix(body, "data:"); ok {
			prefix, body = "data:", rest
		}
		if strings.Contains(body, `\`) && json.Valid([]byte(body)) {
			lines[i] = prefix + scrubLiterals(body, secrets) + line[len(strings.TrimRight(line, "\r\n")):]
		}
	}
	return strings.Join(lines, "")
}

// scrubLiterals rewrites the string literals of the valid JSON doc whose
// decoded text holds a secret.
func scrubLiterals(doc string, secrets []string) string {
	var b strings.Builder
	last := 0
	forEachLiteral(doc, func(start, end int) {
		lit := doc[start:end]
		if !strings.Contains(lit, `\`) {
			return
		}
		var dec string
		if json.Unmarshal([]byte(lit), &dec) != nil {
			return
		}
		scrubbed := dec
		for _, sec := range secrets {
			scrubbed = strings.ReplaceAll(scrubbed, sec, redacted)
		}
		if scrubbed == dec {
			return
		}
		enc, err := json.Marshal(scrubbed)
		if err != nil {
			return
		}
		b.WriteString(doc[last:start])
		b.Write(enc)
		last = end
	})
	if last == 0 {
		return doc
	}
	b.WriteString(doc[last:])
	return b.String()
}

// forEachLiteral calls fn with the span of every string literal (quotes
// included) of the valid JSON doc: in valid JSON every '"' outside a
// literal opens one.
func forEachLiteral(doc string, fn func(start, end int)) {
	for i := 0; i < len(doc); i++ {
		if doc[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(doc) && doc[j] != '"' {
			if doc[j] == '\\' {
				j++
			}
			j++
		}
		fn(i, j+1)
		i = j
	}
}
