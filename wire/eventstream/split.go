package eventstream

import "encoding/binary"

// Split cuts body after each message, by the total length in each prelude
// (no CRC is checked: a server paces what it was given, broken or not). A
// length that is too small or points past the body ends the cutting: the
// rest is one last piece.
func Split(body []byte) [][]byte {
	var pieces [][]byte
	for len(body) > 0 {
		n := len(body)
		if len(body) >= preludeLen {
			if total := int(binary.BigEndian.Uint32(body)); total >= minMessage && total <= len(body) {
				n = total
			}
		}
		pieces = append(pieces, body[:n:n])
		body = body[n:]
	}
	return pieces
}
