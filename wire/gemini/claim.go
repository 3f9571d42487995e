package gemini

import (
	"encoding/json"

	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// The claim of isStreamEvent, read two ways: scanClaim passes over the
// top-level members of the data in one pass, decoding no value (wire.Detect
// asks every event it reads, and a recorded answer's first chunk can be
// large); decodeClaim decodes the top level with encoding/json, the
// reference scanClaim is tested against and the reader of what it leaves.

// claimKeys are the top-level keys of a GenerateContentResponse;
// excludedKey is the chat chunk's, which no Gemini event has.
var claimKeys = []string{"candidates", "usageMetadata", "promptFeedback", "modelVersion", "responseId"}

const excludedKey = "choices"

// scanClaim is decodeClaim of data when ok; ok is false when data is not a
// well-formed object of plain keys (escapes or bytes past ASCII in a key,
// nesting past the scanner's bound, trailing bytes), left to decodeClaim.
func scanClaim(data []byte) (claims, ok bool) {
	s := &jsonscan.Scanner{B: data}
	if s.WS() != '{' {
		return false, false
	}
	s.I++
	excluded := false
	for first := true; ; first = false {
		key, done, ok := s.Member(first, true)
		if !ok {
			return false, false
		}
		if done {
			break
		}
		if string(key) == excludedKey {
			excluded = true
		}
		for _, k := range claimKeys {
			if string(key) == k {
				claims = true
			}
		}
		if !s.Skip(0) {
			return false, false
		}
	}
	s.WS()
	if s.I != len(data) {
		return false, false
	}
	return claims && !excluded, true
}

// decodeClaim reports whether data is a JSON object with one of claimKeys
// and without excludedKey at its top level.
func decodeClaim(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	if _, ok := top[excludedKey]; ok {
		return false
	}
	for _, k := range claimKeys {
		if _, ok := top[k]; ok {
			return true
		}
	}
	return false
}
