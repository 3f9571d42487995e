package eventstream

import (
	"bytes"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestEmptyMessage: the smallest message, as the format's published test
// vector "empty_message" has it.
func TestEmptyMessage(t *testing.T) {
	got, err := Append(nil, Message{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "000000100000000005c248eb7d98c8ff"; hex.EncodeToString(got) != want {
		t.Errorf("empty message: %x, want %s", got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	msgs := []Message{
		{Headers: []Header{String(":message-type", "event"), String(":event-type", "chunk"), String(":content-type", "application/json")},
			Payload: []byte(`{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdGFydCJ9"}`)},
		{Headers: []Header{
			{Name: "t", Type: TypeTrue, Value: true}, {Name: "f", Type: TypeFalse, Value: false},
			{Name: "b", Type: TypeByte, Value: int8(-3)}, {Name: "s", Type: TypeShort, Value: int16(-300)},
			{Name: "i", Type: TypeInt, Value: int32(70000)}, {Name: "l", Type: TypeLong, Value: int64(-1 << 40)},
			{Name: "bytes", Type: TypeBytes, Value: []byte{0, 1, 2}}, {Name: "ts", Type: TypeTimestamp, Value: time.UnixMilli(1767225600123).UTC()},
			{Name: "u", Type: TypeUUID, Value: [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
		}},
		{Payload: bytes.Repeat([]byte("x"), 70000)},
	}
	var stream []byte
	for _, m := range msgs {
		var err error
		if stream, err = Append(stream, m); err != nil {
			t.Fatal(err)
		}
	}
	// a reader that gives one byte at a time: messages split across reads
	d := NewDecoder(&oneByte{r: bytes.NewReader(stream)})
	for i, want := range msgs {
		got, err := d.Next()
		if err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("message %d (-want +got):\n%s", i+1, diff)
		}
	}
	if _, err := d.Next(); err != io.EOF {
		t.Errorf("after the last message: %v, want io.EOF", err)
	}
	if got := msgs[0].Get(":event-type"); got != "chunk" {
		t.Errorf("Get: %q", got)
	}
}

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

// TestBadInput: each broken stream is an error naming its problem and the
// message's offset.
func TestBadInput(t *testing.T) {
	good, _ := Append(nil, Message{Headers: []Header{String(":event-type", "chunk")}, Payload: []byte("{}")})
	two := append(append([]byte(nil), good...), good...)
	flip := func(b []byte, i int) []byte { c := append([]byte(nil), b...); c[i] ^= 0xff; return c }
	withPrelude := func(total, headers uint32) []byte {
		m, _ := Append(nil, Message{})
		c := append([]byte(nil), m...)
		c[0], c[1], c[2], c[3] = byte(total>>24), byte(total>>16), byte(total>>8), byte(total)
		c[4], c[5], c[6], c[7] = byte(headers>>24), byte(headers>>16), byte(headers>>8), byte(headers)
		return fixPrelude(c)
	}
	unknownType := fixCRCs(func() []byte {
		c := append([]byte(nil), good...)
		c[12+1+len(":event-type")] = 10 // the type byte of the first header
		return c
	}())
	for _, tt := range []struct {
		name string
		in   []byte
		is   error
		want string
	}{
		{"not an event stream", []byte("data: {\"type\":\"message_start\"}\n\n"), ErrBadMessage, "eventstream: message at byte 0: prelude CRC 74797065, computed "},
		{"a cut prelude", good[:7], ErrTruncated, "eventstream: message at byte 0: 7 bytes of its 12-byte prelude: the event stream ended inside a message"},
		{"a cut message", two[:len(good)+20], ErrTruncated, "eventstream: message at byte 38: 20 of its 38 bytes: the event stream ended inside a message"},
		{"a bad prelude CRC", flip(good, 9), ErrBadMessage, "prelude CRC"},
		{"a bad message CRC", flip(good, len(good)-6), ErrBadMessage, "eventstream: message at byte 0: message CRC"},
		{"a length past the bound", withPrelude(MaxMessage+1, 0), ErrBadMessage, "eventstream: message at byte 0: a total length of 16777217, over 16777216: not an event stream message"},
		{"a length under an empty message", withPrelude(15, 0), ErrBadMessage, "eventstream: message at byte 0: a total length of 15, under the 16 of an empty message: not an event stream message"},
		{"headers past the message", withPrelude(16, 1), ErrBadMessage, "eventstream: message at byte 0: 1 bytes of headers in a message of 16: not an event stream message"},
		{"a header of an unknown type", unknownType, ErrBadMessage, "eventstream: message at byte 0: header :event-type: unknown value type 10: not an event stream message"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDecoder(bytes.NewReader(tt.in))
			var err error
			for err == nil {
				_, err = d.Next()
			}
			if !errors.Is(err, tt.is) || !bytes.Contains([]byte(err.Error()), []byte(tt.want)) {
				t.Errorf("got %v\nwant %v containing %q", err, tt.is, tt.want)
			}
		})
	}
}

func fixPrelude(c []byte) []byte {
	sum := crcIEEE(c[:8])
	c[8], c[9], c[10], c[11] = byte(sum>>24), byte(sum>>16), byte(sum>>8), byte(sum)
	return c
}

// fixCRCs recomputes both CRCs of one message, so that only what was
// edited is wrong.
func fixCRCs(c []byte) []byte {
	c = fixPrelude(c)
	sum := crcIEEE(c[:len(c)-4])
	n := len(c)
	c[n-4], c[n-3], c[n-2], c[n-1] = byte(sum>>24), byte(sum>>16), byte(sum>>8), byte(sum)
	return c
}

func TestAppendRefuses(t *testing.T) {
	for _, tt := range []struct {
		h    Header
		want string
	}{
		{Header{Name: "", Type: TypeString, Value: "x"}, `eventstream: header name "": 1 to 255 bytes`},
		{Header{Name: "n", Type: TypeInt, Value: "7"}, "eventstream: header n: a string is no int value"},
		{Header{Name: "n", Type: 42, Value: 1}, "eventstream: header n: unknown type 42"},
	} {
		if _, err := Append([]byte("kept"), Message{Headers: []Header{tt.h}}); err == nil || err.Error() != tt.want {
			t.Errorf("Append(%+v) = %v, want %s", tt.h, err, tt.want)
		}
	}
}

func crcIEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// FuzzDecode: any bytes decode to messages or an error, never a panic, and
// each message decoded is written back to the same bytes.
func FuzzDecode(f *testing.F) {
	good, _ := Append(nil, Message{Headers: []Header{String(":event-type", "chunk"), {Name: "n", Type: TypeInt, Value: int32(7)}}, Payload: []byte("{}")})
	f.Add(good)
	f.Add([]byte("data: {}\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		d := NewDecoder(bytes.NewReader(in))
		var again []byte
		for {
			m, err := d.Next()
			if err != nil {
				break
			}
			var aerr error
			if again, aerr = Append(again, m); aerr != nil {
				t.Fatalf("a decoded message does not write back: %v", aerr)
			}
		}
		if !bytes.HasPrefix(in, again) {
			t.Fatalf("written back %x, not a prefix of %x", again, in)
		}
	})
}
