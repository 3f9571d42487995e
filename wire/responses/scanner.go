package responses

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// scanner is the lexer (jsonscan.Scanner) with this format's event shapes
// as methods: the fast path that decodes the common events without
// encoding/json. When a respTemplate is to remember the event, it notes
// where each value that may change from one delta event to the next was:
// the holes, in the order they came, and what each one is (roles).
type scanner struct {
	jsonscan.Scanner
	holes [jsonscan.MaxHoles]jsonscan.Hole
	roles [jsonscan.MaxHoles]holeRole
	n     int  // holes noted
	over  bool // more than MaxHoles came: the event is not remembered
	noted bool // holes are noted (a template is to remember the event)
}

// holeRole is what a hole of a remembered delta event holds.
type holeRole uint8

const (
	roleSeq        holeRole = iota // sequence_number
	roleItem                       // item_id
	roleOutput                     // output_index
	roleContent                    // content_index
	roleDelta                      // the delta's text
	roleSkipped                    // a string the scanner skipped (obfuscation)
	roleItemID                     // an output item's id
	roleItemCallID                 // its call_id
	roleItemName                   // its name
	roleItemArgs                   // its arguments
)

// hole notes the value of the member just read, which began at start: bit
// is the member's bit in scanRespDelta (0 for a member it skipped). The
// type and values that are not strings or integers are not holes: they
// stay fixed bytes.
func (s *scanner) hole(bit uint32, start int) {
	var kind jsonscan.HoleKind
	var role holeRole
	switch bit {
	case 1 << 1:
		kind, role = jsonscan.HoleInt, roleSeq
	case 1 << 2:
		kind, role = jsonscan.HolePlain, roleItem
	case 1 << 3:
		kind, role = jsonscan.HoleInt, roleOutput
	case 1 << 4:
		kind, role = jsonscan.HoleInt, roleContent
	case 1 << 5:
		kind, role = jsonscan.HoleUTF8, roleDelta
	case 0:
		if s.B[start] != '"' {
			return
		}
		kind, role = jsonscan.HoleString, roleSkipped
	default:
		return
	}
	s.note(kind, role, start)
}

// note adds the hole of a value that began at start and ends at the cursor.
func (s *scanner) note(kind jsonscan.HoleKind, role holeRole, start int) {
	if s.n == len(s.holes) {
		s.over = true
		return
	}
	s.holes[s.n], s.roles[s.n] = jsonscan.Hole{Kind: kind, Start: start, End: s.I}, role
	s.n++
}

// itemHole notes the hole of an output item's member read by fastItem
// (bit as there), when holes are noted: the id, call_id and name (plain)
// and the arguments (UTF-8); the type and skipped members stay fixed bytes.
func (s *scanner) itemHole(bit uint32, start int) {
	if !s.noted {
		return
	}
	switch bit {
	case 1 << 0:
		s.note(jsonscan.HolePlain, roleItemID, start)
	case 1 << 2:
		s.note(jsonscan.HolePlain, roleItemCallID, start)
	case 1 << 3:
		s.note(jsonscan.HolePlain, roleItemName, start)
	case 1 << 4:
		s.note(jsonscan.HoleUTF8, roleItemArgs, start)
	}
}
