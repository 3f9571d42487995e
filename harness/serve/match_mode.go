package serve

import "fmt"

// MatchMode is how Replayer finds the recorded reply to a request.
type MatchMode int

const (
	// MatchBody serves the first interaction whose method, path and
	// canonical JSON body equal the request's (the replay's matcher).
	MatchBody MatchMode = iota
	// MatchTurn serves the reply recorded for the request with as many
	// assistant messages, whatever the rest of the body says.
	MatchTurn
)

var matchModeNames = []string{"body", "turn"}

// String is the mode's name as ParseMatchMode reads it.
func (m MatchMode) String() string {
	if m < 0 || int(m) >= len(matchModeNames) {
		return fmt.Sprintf("MatchMode(%d)", int(m))
	}
	return matchModeNames[m]
}

// ParseMatchMode reads "body" or "turn".
func ParseMatchMode(s string) (MatchMode, error) {
	for i, n := range matchModeNames {
		if n == s {
			return MatchMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown match mode %q (want body or turn)", s)
}
