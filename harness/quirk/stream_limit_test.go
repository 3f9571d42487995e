package quirk

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// endlessPiece is one more piece of a call's arguments that never end.
const endlessPiece = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}}]}}]}\n\n"

// crlfStart begins an event whose text never ends.
const crlfStart = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\""

// A Stream under LimitHeld never holds more than its bound: fed an answer
// whose call arguments never end, a quirk that holds from the first call
// piece (args_split_escapes) and one that holds only the event being read
// (crlf, fed an event that never ends) refuse the piece that would take
// them past it with ErrHoldLimit, drop what they held and send nothing
// more. (Without the bound, the held bytes grew with every piece.)
func TestStreamHoldsAtMostItsLimit(t *testing.T) {
	const limit = 64 << 10
	start := "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"\"}}]}}]}\n\n"
	for _, tt := range []struct {
		quirk, start, piece string
		sentFirst           string // what goes out before the limit
		// heldAtLimit is Held when the refused piece came: all that was
		// taken (the answer so far, its first event copied to apply to;
		// for crlf the event being read), since a piece is refused only
		// when it would take that past the limit.
		heldAtLimit int
	}{
		{"args_split_escapes", start, endlessPiece, "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
			len(start) + (limit-len(start))/len(endlessPiece)*len(endlessPiece)},
		{"crlf", crlfStart, strings.Repeat("b", 1000), "", len(crlfStart) + (limit-len(crlfStart))/1000*1000},
	} {
		t.Run(tt.quirk, func(t *testing.T) {
			q, _ := ByName(tt.quirk)
			s := q.Stream(1)
			s.LimitHeld(limit)
			sent, err := s.Write([]byte(tt.start))
			if err != nil {
				t.Fatal(err)
			}
			var pieces int
			for ; pieces < 10*limit/len(tt.piece); pieces++ { // bounded: the test fails, never loops on
				held := s.Held()
				out, err := s.Write([]byte(tt.piece))
				sent = append(sent, out...)
				if s.Held() > limit {
					t.Fatalf("after %d pieces: holds %d bytes, over the limit of %d", pieces+1, s.Held(), limit)
				}
				if err == nil {
					continue
				}
				if !errors.Is(err, ErrHoldLimit) {
					t.Fatalf("error %v, want ErrHoldLimit", err)
				}
				want := fmt.Sprintf("quirk %s: the quirk would hold more of the answer than its limit: it holds %d bytes, %d more came, the limit is 65536",
					q.Name, tt.heldAtLimit, len(tt.piece))
				if err.Error() != want {
					t.Errorf("error:\n  %s\nwant\n  %s", err, want)
				}
				if held != tt.heldAtLimit {
					t.Errorf("held %d bytes when the limit was met, want %d", held, tt.heldAtLimit)
				}
				break
			}
			if pieces == 10*limit/len(tt.piece) {
				t.Fatalf("%d pieces (%d bytes) taken without ErrHoldLimit; holds %d", pieces, pieces*len(tt.piece), s.Held())
			}
			if string(sent) != tt.sentFirst {
				t.Errorf("sent %q, want %q", sent, tt.sentFirst)
			}
			if s.Held() != 0 {
				t.Errorf("holds %d bytes after the limit, want 0 (dropped)", s.Held())
			}
			out, err := s.Write([]byte(tt.piece))
			rest, cerr := s.Close()
			if len(out)+len(rest) != 0 || err != nil || cerr != nil {
				t.Errorf("after the limit: Write %q, %v; Close %q, %v; want nothing", out, err, rest, cerr)
			}
		})
	}
}
