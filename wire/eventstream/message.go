package eventstream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"time"
)

// Bounds of a message, as AWS states them for event streams.
const (
	// MaxMessage is the largest message, prelude and CRC included.
	MaxMessage = 16 << 20
	// MaxHeaders is the most the headers of one message take.
	MaxHeaders = 128 << 10
	// preludeLen is the prelude with its CRC; minMessage a message with no
	// headers and no payload.
	preludeLen = 12
	minMessage = preludeLen + 4
)

// A HeaderType is the type byte of a header value.
type HeaderType byte

// The header value types.
const (
	TypeTrue HeaderType = iota
	TypeFalse
	TypeByte
	TypeShort
	TypeInt
	TypeLong
	TypeBytes
	TypeString
	TypeTimestamp
	TypeUUID
)

func (t HeaderType) String() string {
	names := [...]string{"true", "false", "byte", "short", "int", "long", "bytes", "string", "timestamp", "uuid"}
	if int(t) < len(names) {
		return names[t]
	}
	return fmt.Sprintf("type %d", byte(t))
}

// A Header is one header: its name, type and value (bool for true and
// false, int8, int16, int32, int64, []byte, string, time.Time (whole
// milliseconds) or [16]byte for a UUID).
type Header struct {
	Name  string
	Type  HeaderType
	Value any
}

// String is a header of type string.
func String(name, value string) Header { return Header{Name: name, Type: TypeString, Value: value} }

// A Message is one message of an event stream.
type Message struct {
	Headers []Header
	Payload []byte
}

// Get is the value of the string header name, "" when there is none.
func (m Message) Get(name string) string {
	for _, h := range m.Headers {
		if h.Name == name {
			if s, ok := h.Value.(string); ok {
				return s
			}
		}
	}
	return ""
}

// Append appends m, framed, to dst. A header whose value does not fit its
// type, a name or value too long, or a message over the bounds is an
// error, and dst comes back as it was.
func Append(dst []byte, m Message) ([]byte, error) {
	var headers []byte
	for _, h := range m.Headers {
		var err error
		if headers, err = appendHeader(headers, h); err != nil {
			return dst, err
		}
	}
	if len(headers) > MaxHeaders {
		return dst, fmt.Errorf("eventstream: %d bytes of headers, over %d", len(headers), MaxHeaders)
	}
	total := minMessage + len(headers) + len(m.Payload)
	if total > MaxMessage {
		return dst, fmt.Errorf("eventstream: a message of %d bytes, over %d", total, MaxMessage)
	}
	start := len(dst)
	dst = binary.BigEndian.AppendUint32(dst, uint32(total))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(headers)))
	dst = binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:start+8]))
	dst = append(dst, headers...)
	dst = append(dst, m.Payload...)
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:])), nil
}

func appendHeader(dst []byte, h Header) ([]byte, error) {
	if len(h.Name) == 0 || len(h.Name) > 255 {
		return nil, fmt.Errorf("eventstream: header name %q: 1 to 255 bytes", h.Name)
	}
	dst = append(dst, byte(len(h.Name)))
	dst = append(dst, h.Name...)
	dst = append(dst, byte(h.Type))
	bad := func() ([]byte, error) {
		return nil, fmt.Errorf("eventstream: header %s: a %T is no %s value", h.Name, h.Value, h.Type)
	}
	switch h.Type {
	case TypeTrue, TypeFalse:
	case TypeByte:
		v, ok := h.Value.(int8)
		if !ok {
			return bad()
		}
		dst = append(dst, byte(v))
	case TypeShort:
		v, ok := h.Value.(int16)
		if !ok {
			return bad()
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(v))
	case TypeInt:
		v, ok := h.Value.(int32)
		if !ok {
			return bad()
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(v))
	case TypeLong:
		v, ok := h.Value.(int64)
		if !ok {
			return bad()
		}
		dst = binary.BigEndian.AppendUint64(dst, uint64(v))
	case TypeBytes, TypeString:
		var v []byte
		switch x := h.Value.(type) {
		case []byte:
			v = x
		case string:
			v = []byte(x)
		default:
			return bad()
		}
		if len(v) > 0xffff {
			return nil, fmt.Errorf("eventstream: header %s: a value of %d bytes, over 65535", h.Name, len(v))
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(v)))
		dst = append(dst, v...)
	case TypeTimestamp:
		v, ok := h.Value.(time.Time)
		if !ok {
			return bad()
		}
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.UnixMilli()))
	case TypeUUID:
		v, ok := h.Value.([16]byte)
		if !ok {
			return bad()
		}
		dst = append(dst, v[:]...)
	default:
		return nil, fmt.Errorf("eventstream: header %s: unknown type %d", h.Name, byte(h.Type))
	}
	return dst, nil
}

// Errors Decoder returns, wrapped in one that names the problem.
var (
	// ErrBadMessage: the bytes are not a message of the format (a CRC
	// that does not match, a length past the bounds or the message, a
	// header of an unknown type).
	ErrBadMessage = errors.New("not an event stream message")
	// ErrTruncated: the stream ended inside a message.
	ErrTruncated = errors.New("the event stream ended inside a message")
)
