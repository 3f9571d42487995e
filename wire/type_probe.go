package wire

import (
	"encoding/json"

	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// dataType is the "type" member of an event's data as encoding/json reads
// it into a struct with a Type string field (decodeDataType); ok is false
// when that fails (data that is not JSON, a type that is not a string). A
// well-formed object whose keys are plain and whose type, if any, is a
// plain string or null is read by scanDataType in one pass, decoding no
// other value; the rest goes to decodeDataType.
func dataType(data []byte) (typ string, ok bool) {
	if typ, ok, sure := scanDataType(data); sure {
		return typ, ok
	}
	return decodeDataType(data)
}

// scanDataType is dataType when sure. It is not sure of a key that
// encoding/json might match to the field without being "type" (its match
// folds case) or of a type value with escapes.
func scanDataType(data []byte) (typ string, ok, sure bool) {
	s := &jsonscan.Scanner{B: data}
	if s.WS() != '{' {
		return "", false, false
	}
	s.I++
	for first := true; ; first = false {
		key, done, ok := s.Member(first, true)
		if !ok {
			return "", false, false
		}
		if done {
			break
		}
		switch {
		case string(key) == "type" && s.Peek() == '"':
			lit, plain, ok := s.Str()
			if !ok || !plain {
				return "", false, false
			}
			typ = string(lit[1 : len(lit)-1])
			continue
		case string(key) == "type" && s.Null(): // leaves the field as it was
			continue
		case len(key) == len("type") && jsonscan.FoldedEqual(key, "type"):
			return "", false, false
		}
		if !s.Skip(0) {
			return "", false, false
		}
	}
	s.WS()
	if s.I != len(data) {
		return "", false, false
	}
	return typ, true, true
}

// decodeDataType reads the type with encoding/json: the reference
// scanDataType is tested against.
func decodeDataType(data []byte) (string, bool) {
	var probe struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return "", false
	}
	return probe.Type, true
}
