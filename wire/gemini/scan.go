package gemini

import (
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// The members the fast path reads, lower-cased for the case-folding check
// of jsonscan.Scanner.Other (encoding/json matches keys without case).
var (
	responseFields  = []string{"candidates", "usagemetadata", "promptfeedback", "error"}
	candidateFields = []string{"content", "finishreason", "finishmessage", "index"}
	contentFields   = []string{"parts"}
	partFields      = []string{"text", "thought", "functioncall", "functionresponse", "thoughtsignature"}
	callFields      = []string{"id", "name", "args", "partialargs", "willcontinue"}
	usageFields     = []string{"prompttokencount", "candidatestokencount", "thoughtstokencount", "totaltokencount"}
)

// scanResponse is the fast path for the events that make a stream: a
// GenerateContentResponse with candidates (content parts of text, thought
// and functionCall, finishReason, index), usageMetadata and members the
// merger does not read (modelVersion, responseId, safetyRatings...). One
// pass, no reflection. It fills ev and returns true, or returns false for
// anything it does not understand (an error or promptFeedback member, a
// null, a duplicate or case-folded key, a string that is not valid UTF-8, a
// number that is not an int); the caller then decodes the event with
// encoding/json, which gives the same result or the error text.
func scanResponse(data []byte, ev *response) bool {
	s := &jsonscan.Scanner{B: data}
	if s.WS() != '{' {
		return false
	}
	s.I++
	_, ok := s.Members(func(key []byte) (uint32, bool) {
		switch string(key) {
		case "candidates":
			return 1 << 0, scanCandidates(s, ev)
		case "usageMetadata":
			ev.UsageMetadata = &usageMetadata{}
			return 1 << 1, scanUsage(s, ev.UsageMetadata)
		case "promptFeedback", "error":
			return 0, false
		}
		return 0, s.Other(key, responseFields)
	})
	return ok && s.WS() == 0
}

func scanCandidates(s *jsonscan.Scanner, ev *response) bool {
	if s.WS() != '[' {
		return false
	}
	s.I++
	ev.Candidates = []candidate{}
	for first := true; ; first = false {
		done, ok := s.Element(first)
		if !ok || done {
			return ok
		}
		var c candidate
		if !scanCandidate(s, &c) {
			return false
		}
		ev.Candidates = append(ev.Candidates, c)
	}
}

func scanCandidate(s *jsonscan.Scanner, c *candidate) bool {
	if s.WS() != '{' {
		return false
	}
	s.I++
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "content":
			c.Content = &candidateContent{}
			return 1 << 0, scanContent(s, c.Content)
		case "finishReason":
			c.FinishReason, ok = scanString(s)
			return 1 << 1, ok
		case "index":
			c.Index, ok = s.Integer()
			return 1 << 2, ok
		case "finishMessage":
			c.FinishMessage, ok = scanString(s)
			return 1 << 3, ok
		}
		return 0, s.Other(key, candidateFields)
	})
	return ok
}

func scanContent(s *jsonscan.Scanner, c *candidateContent) bool {
	if s.WS() != '{' {
		return false
	}
	s.I++
	_, ok := s.Members(func(key []byte) (uint32, bool) {
		if string(key) == "parts" {
			return 1 << 0, scanParts(s, c)
		}
		return 0, s.Other(key, contentFields)
	})
	return ok
}

func scanParts(s *jsonscan.Scanner, c *candidateContent) bool {
	if s.WS() != '[' {
		return false
	}
	s.I++
	c.Parts = []part{}
	for first := true; ; first = false {
		done, ok := s.Element(first)
		if !ok || done {
			return ok
		}
		var p part
		if !scanPart(s, &p) {
			return false
		}
		c.Parts = append(c.Parts, p)
	}
}

func scanPart(s *jsonscan.Scanner, p *part) bool {
	if s.WS() != '{' {
		return false
	}
	s.I++
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "text":
			var text string
			text, ok = scanString(s)
			p.Text = &text
			return 1 << 0, ok
		case "thought":
			switch s.WS() {
			case 't':
				p.Thought, ok = true, s.Word("true")
			case 'f':
				p.Thought, ok = false, s.Word("false")
			}
			return 1 << 1, ok
		case "functionCall":
			p.FunctionCall = &functionCall{}
			return 1 << 2, scanCall(s, p.FunctionCall)
		case "thoughtSignature":
			p.ThoughtSignature, ok = scanString(s)
			return 1 << 3, ok
		case "functionResponse":
			return 0, false
		}
		return 0, s.Other(key, partFields)
	})
	return ok
}

func scanCall(s *jsonscan.Scanner, fc *functionCall) bool {
	if s.WS() != '{' {
		return false
	}
	s.I++
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "id":
			fc.ID, ok = scanString(s)
			return 1 << 0, ok
		case "name":
			fc.Name, ok = scanString(s)
			return 1 << 1, ok
		case "args":
			if s.Peek() == 'n' {
				return 0, false
			}
			fc.Args, ok = s.Raw()
			return 1 << 2, ok
		case "partialArgs", "willContinue":
			return 0, false // streamed arguments: encoding/json reads them
		}
		return 0, s.Other(key, callFields)
	})
	return ok
}

func scanUsage(s *jsonscan.Scanner, u *usageMetadata) bool {
	if s.WS() != '{' {
		return false
	}
	s.I++
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		var n *int
		switch string(key) {
		case "promptTokenCount":
			n, bit = &u.PromptTokenCount, 1<<0
		case "candidatesTokenCount":
			n, bit = &u.CandidatesTokenCount, 1<<1
		case "thoughtsTokenCount":
			n, bit = &u.ThoughtsTokenCount, 1<<2
		case "totalTokenCount":
			n, bit = &u.TotalTokenCount, 1<<3
		default:
			return 0, s.Other(key, usageFields)
		}
		*n, ok = s.Integer()
		return bit, ok
	})
	return ok
}

// scanString reads a string member's text; false for anything else (null
// included) and for a string that is not valid UTF-8, which encoding/json
// would change.
func scanString(s *jsonscan.Scanner) (string, bool) {
	if s.Peek() != '"' {
		return "", false
	}
	lit, plain, ok := s.Str()
	if !ok {
		return "", false
	}
	if plain {
		return string(lit[1 : len(lit)-1]), true
	}
	if !utf8.Valid(lit) {
		return "", false
	}
	return string(jsonscan.AppendUnquoted(nil, lit)), true
}
