package cassette

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/agentvcr/agentvcr/wire"
	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// ScanFile scans the saved cassette at path and fails closed: its raw text
// line by line for every form of every secret (see Scrub) and for the
// credential shapes providers publish (keyShapes),
// then its interactions decoded (Scan). A file that cannot be read or
// decoded is a failure too. Findings are a *SecretError; a file that
// cannot be read or decoded is that error.
func (s Secrets) ScanFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("scan for secrets: %w", err)
	}
	return s.ScanData(data)
}

// ScanData is ScanFile on a cassette's bytes, before they are written.
func (s Secrets) ScanData(data []byte) error {
	var found []string
	raw := map[int]bool{}
	for n, sec := range s.list() {
		for _, form := range forms(sec) {
			if lines := linesContaining(data, func(l string) bool { return strings.Contains(l, form) }); lines != "" {
				found = append(found, fmt.Sprintf("secret %d on %s", s.number(sec), lines))
				raw[n] = true
				break
			}
		}
	}
	keyOnRaw := map[int]bool{} // a finding of keyShapes[k] is -1-k
	for k, nums := range shapeLines(data) {
		if len(nums) > 0 {
			found = append(found, keyShapes[k].name+" on "+lineNumbers(nums))
			keyOnRaw[-1-k] = true
		}
	}
	c, err := Decode(data)
	if err != nil {
		return fmt.Errorf("scan for secrets: %w", err)
	}
	for _, f := range s.scan(c.Interactions) {
		if (f.secret >= 0 && !raw[f.secret]) || (f.secret < 0 && !keyOnRaw[f.secret]) {
			found = append(found, f.text)
		}
	}
	if len(found) == 0 {
		return nil
	}
	return &SecretError{Found: found}
}

// KeyShapesIn returns where data, text that is no cassette (a case
// file, a captured stream), holds a credential shape providers publish,
// one entry a shape ("a Google API key (AIza) on line 7"); none when it
// holds none. It reads the text as it is, line by line: a key cut across
// two lines or two stream events is not found.
func KeyShapesIn(data []byte) []string {
	var found []string
	for k, nums := range shapeLines(data) {
		if len(nums) > 0 {
			found = append(found, keyShapes[k].name+" on "+lineNumbers(nums))
		}
	}
	return found
}

// shapeLines returns, for each of keyShapes, the lines of data that hold it.
func shapeLines(data []byte) [][]int {
	lines := make([][]int, len(keyShapes))
	for n, l := range strings.Split(string(data), "\n") {
		for _, k := range keysIn(l) {
			lines[k] = append(lines[k], n+1)
		}
	}
	return lines
}

// SecretError lists where secrets were found ("secret 1 on line 5", "an
// sk- key in interaction 2 response body (JSON text of $.choices#0...)"),
// never the secrets themselves. It wraps ErrSecretInCassette.
type SecretError struct{ Found []string }

func (e *SecretError) Error() string {
	return e.places() + ": " + ErrSecretInCassette.Error()
}

func (e *SecretError) places() string { return strings.Join(e.Found, "; ") }

func (e *SecretError) Unwrap() error { return ErrSecretInCassette }

// Scan reports where a secret survives in interactions about to be
// written, or nil. Each request and response is looked at as written, with
// %XX sequences decoded, and decoded as JSON: the JSON strings of a body (a
// JSON document, or the "data:" events of a stream) are joined per place
// (the member path, with the "index" of the objects on the way, so the
// content of one choice or one tool call across all the events of a
// stream), which finds a secret split across two stream events or escaped
// as \u0073k-…. Each view is searched for every form of every secret
// (as written, URL-escaped, inside base64) and for the credential shapes
// providers publish (sk-, sk-ant-, sk-proj-, AIza, ya29., AKIA/ASIA and a
// named AWS secret access key, ghp_ and its kin, github_pat_, JWTs). The error
// wraps ErrSecretInCassette and never holds a secret.
func (s Secrets) Scan(interactions []*vcr.Interaction) error {
	var found []string
	for _, f := range s.scan(interactions) {
		found = append(found, f.text)
	}
	if len(found) == 0 {
		return nil
	}
	return &SecretError{Found: found}
}

// finding is one secret (its index in list; -1-k for a credential of
// keyShapes[k]) found in one place, first place only.
type finding struct {
	secret int
	text   string
}

func (s Secrets) scan(interactions []*vcr.Interaction) []finding {
	secrets := s.list()
	secretForms := make([][]string, len(secrets)) // each secret's forms, worked out once
	for k, sec := range secrets {
		secretForms[k] = forms(sec)
	}
	var out []finding
	seen := map[int]bool{}
	for n, i := range interactions {
		var headers []string // every header record, whatever its name says
		for _, h := range []http.Header{i.Request.Headers, i.Response.Headers} {
			for name, vs := range h {
				for _, v := range vs {
					headers = append(headers, name+": "+v)
				}
			}
		}
		var form []string
		for k, vs := range i.Request.Form {
			form = append(form, k)
			form = append(form, vs...)
		}
		places := []struct{ name, text string }{
			{"request URL", i.Request.URL},
			{"headers", strings.Join(headers, "\n")},
			{"request form", strings.Join(form, "\n")},
			{"request body", i.Request.Body},
			{"response body", i.Response.Body},
		}
		for _, p := range places {
			for _, v := range views(p.text) {
				where := fmt.Sprintf("interaction %d %s", n+1, p.name)
				if v.name != "" {
					where += " (" + v.name + ")"
				}
				for k, sec := range secrets {
					if seen[k] {
						continue
					}
					for _, f := range secretForms[k] {
						if strings.Contains(v.text, f) {
							seen[k] = true
							out = append(out, finding{k, fmt.Sprintf("secret %d in %s", s.number(sec), where)})
							break
						}
					}
				}
				rest := v.text // a key that is a configured secret is reported as that secret
				for _, sec := range secrets {
					rest = strings.ReplaceAll(rest, sec, "")
				}
				for _, k := range keysIn(rest) {
					if !seen[-1-k] {
						seen[-1-k] = true
						out = append(out, finding{-1 - k, keyShapes[k].name + " in " + where})
					}
				}
			}
		}
	}
	return out
}

// view is one way of reading a place's text.
type view struct{ name, text string }

// views returns text as written, with %XX decoded (when that changes it),
// and the joined JSON strings of each member path (when text is JSON or a
// stream of JSON events).
func views(text string) []view {
	out := []view{{"", text}}
	if dec := percentDecode(text); dec != text {
		out = append(out, view{"URL-decoded", dec})
	}
	if f := wire.Detect([]byte(text)); f.Framing != nil && f.Framing.IsFramed([]byte(text)) {
		// A framed answer (Bedrock's) carries its events base64 in binary
		// messages: read them, as far as they read, and scan them too.
		logical, _ := io.ReadAll(f.LogicalStream(strings.NewReader(text)))
		out = append(out, view{"its " + f.Framing.Name + " read", string(logical)})
		text = string(logical)
	}
	j := joiner{paths: map[string]*strings.Builder{}}
	if json.Valid([]byte(text)) {
		j.add([]byte(text))
	} else {
		for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if rest, ok := strings.CutPrefix(line, "data:"); ok {
				j.add([]byte(rest))
			}
		}
	}
	for _, p := range j.order {
		out = append(out, view{"JSON text of " + p, j.paths[p].String()})
	}
	return out
}

// joiner collects the decoded strings of JSON documents per member path.
type joiner struct {
	paths map[string]*strings.Builder
	order []string
}

func (j *joiner) add(doc []byte) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return
	}
	j.walk(v, "$")
}

func (j *joiner) walk(v any, path string) {
	switch v := v.(type) {
	case string:
		b, ok := j.paths[path]
		if !ok {
			b = &strings.Builder{}
			j.paths[path] = b
			j.order = append(j.order, path)
		}
		b.WriteString(v)
	case []any:
		for _, e := range v {
			j.walk(e, path+"[]")
		}
	case map[string]any:
		if n, ok := v["index"].(json.Number); ok {
			path += "#" + n.String()
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			j.walk(k, path+"{key}")
			j.walk(v[k], path+"."+k)
		}
	}
}

// percentDecode replaces every %XX (hex) with its byte, leaving anything
// else as it is.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
