package eventstream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"
)

// A Decoder reads the messages of an event stream as they arrive.
type Decoder struct {
	r      io.Reader
	offset int64 // of the next message in the stream
}

// NewDecoder reads messages from r.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r} }

// Offset is the byte offset of the next message: after Next, of the one
// after the message it read (a caller names the message it read by the
// offset it had before the call).
func (d *Decoder) Offset() int64 { return d.offset }

// Next reads the next message: io.EOF at the stream's end between two
// messages; an error wrapping ErrTruncated when it ends inside one, or
// ErrBadMessage when the bytes are not one (both name the offset).
func (d *Decoder) Next() (Message, error) {
	at := d.offset
	var prelude [preludeLen]byte
	n, err := io.ReadFull(d.r, prelude[:])
	d.offset += int64(n)
	switch {
	case err == io.EOF:
		return Message{}, io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Message{}, fmt.Errorf("eventstream: message at byte %d: %d bytes of its 12-byte prelude: %w", at, n, ErrTruncated)
	case err != nil:
		return Message{}, err
	}
	total := binary.BigEndian.Uint32(prelude[0:4])
	headersLen := binary.BigEndian.Uint32(prelude[4:8])
	bad := func(format string, a ...any) (Message, error) {
		return Message{}, fmt.Errorf("eventstream: message at byte %d: %s: %w", at, fmt.Sprintf(format, a...), ErrBadMessage)
	}
	if got, want := crc32.ChecksumIEEE(prelude[:8]), binary.BigEndian.Uint32(prelude[8:12]); got != want {
		return bad("prelude CRC %08x, computed %08x", want, got)
	}
	switch {
	case total < minMessage:
		return bad("a total length of %d, under the %d of an empty message", total, minMessage)
	case total > MaxMessage:
		return bad("a total length of %d, over %d", total, MaxMessage)
	case headersLen > MaxHeaders:
		return bad("%d bytes of headers, over %d", headersLen, MaxHeaders)
	case uint64(headersLen) > uint64(total)-minMessage:
		return bad("%d bytes of headers in a message of %d", headersLen, total)
	}
	rest, err := readN(d.r, int(total-preludeLen))
	n = len(rest)
	d.offset += int64(n)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return Message{}, fmt.Errorf("eventstream: message at byte %d: %d of its %d bytes: %w", at, preludeLen+n, total, ErrTruncated)
	} else if err != nil {
		return Message{}, err
	}
	body, crc := rest[:len(rest)-4], binary.BigEndian.Uint32(rest[len(rest)-4:])
	h := crc32.NewIEEE()
	h.Write(prelude[:])
	h.Write(body)
	if got := h.Sum32(); got != crc {
		return bad("message CRC %08x, computed %08x", crc, got)
	}
	headers, err := readHeaders(body[:headersLen])
	if err != nil {
		return bad("%v", err)
	}
	m := Message{Headers: headers}
	if payload := body[headersLen:]; len(payload) > 0 {
		m.Payload = payload
	}
	return m, nil
}

// firstRead is the most readN allocates before the bytes arrive.
const firstRead = 64 << 10

// readN reads n bytes, or as many as come before the stream's end (with
// its error), into a buffer that grows with what arrives: a length that
// promises 16 MiB and is followed by 20 bytes costs 64 KiB, not 16 MiB.
func readN(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, firstRead))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, min(cap(buf), n-len(buf)))...)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err != nil {
			if err == io.EOF && len(buf) < n {
				err = io.ErrUnexpectedEOF
			}
			if len(buf) == n {
				err = nil
			}
			return buf, err
		}
	}
	return buf, nil
}

// readHeaders reads the headers of a message.
func readHeaders(b []byte) ([]Header, error) {
	var out []Header
	for len(b) > 0 {
		nameLen := int(b[0])
		if nameLen == 0 || 1+nameLen+1 > len(b) {
			return nil, fmt.Errorf("a header name of %d bytes where %d are left", nameLen, len(b)-1)
		}
		h := Header{Name: string(b[1 : 1+nameLen]), Type: HeaderType(b[1+nameLen])}
		b = b[2+nameLen:]
		need := func(n int) error {
			if n > len(b) {
				return fmt.Errorf("header %s: a %s value of %d bytes where %d are left", h.Name, h.Type, n, len(b))
			}
			return nil
		}
		var size int
		switch h.Type {
		case TypeTrue:
			h.Value = true
		case TypeFalse:
			h.Value = false
		case TypeByte:
			size = 1
		case TypeShort:
			size = 2
		case TypeInt:
			size = 4
		case TypeLong, TypeTimestamp:
			size = 8
		case TypeUUID:
			size = 16
		case TypeBytes, TypeString:
			if err := need(2); err != nil {
				return nil, err
			}
			size = 2 + int(binary.BigEndian.Uint16(b))
		default:
			return nil, fmt.Errorf("header %s: unknown value type %d", h.Name, byte(h.Type))
		}
		if err := need(size); err != nil {
			return nil, err
		}
		v := b[:size]
		switch h.Type {
		case TypeByte:
			h.Value = int8(v[0])
		case TypeShort:
			h.Value = int16(binary.BigEndian.Uint16(v))
		case TypeInt:
			h.Value = int32(binary.BigEndian.Uint32(v))
		case TypeLong:
			h.Value = int64(binary.BigEndian.Uint64(v))
		case TypeTimestamp:
			h.Value = time.UnixMilli(int64(binary.BigEndian.Uint64(v))).UTC()
		case TypeUUID:
			var u [16]byte
			copy(u[:], v)
			h.Value = u
		case TypeBytes:
			h.Value = append([]byte(nil), v[2:]...)
		case TypeString:
			h.Value = string(v[2:])
		}
		b = b[size:]
		out = append(out, h)
	}
	return out, nil
}
