package conform

import (
	"fmt"
	"slices"
	"strings"
)

// A leftNote is what one sweep found still running of a case's agent
// after the agent had exited (or was killed at -timeout): the names
// (comm) of the processes it killed, and, for processes it could not tie
// to one case, the other cases that were running then; one of them, or
// this case, started those.
type leftNote struct {
	names  []string
	others []string
}

// maxLeftNames is how many names a note lists: an agent that leaves a
// thousand processes does not make its details a thousand names long.
const maxLeftNames = 10

// String is the note in the case's details: "it left 2 processes behind:
// sleep, sleep", or "it or a case running alongside it (a, b) left ...".
func (n leftNote) String() string {
	who := "it"
	if len(n.others) > 0 {
		who = fmt.Sprintf("it or a case running alongside it (%s)", strings.Join(n.others, ", "))
	}
	names := slices.Clone(n.names)
	slices.Sort(names)
	list := strings.Join(names[:min(len(names), maxLeftNames)], ", ")
	if len(names) > maxLeftNames {
		list += fmt.Sprintf(" and %d more", len(names)-maxLeftNames)
	}
	return fmt.Sprintf("%s left %d %s behind: %s", who, len(names), plural(len(names), "process", "processes"), list)
}

// leftBehind adds the notes to a case's verdict: a case whose agent left
// a process running is at least a WARNING (a FAILURE stays one), as
// conform had to kill what the agent should have ended itself.
func leftBehind(v verdict, notes []leftNote) verdict {
	for _, n := range notes {
		if v.status == Failure || v.status == Warning {
			v.details += "; and " + n.String()
			continue
		}
		v.status, v.details = Warning, v.details+"; but "+n.String()
	}
	return v
}
