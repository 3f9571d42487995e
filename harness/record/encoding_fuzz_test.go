package record

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"testing"
)

// FuzzDecodeBody: whatever bytes arrive under whatever Content-Encoding,
// decodeBody never panics and never gives more than its limit; what was
// compressed with gzip or deflate (zlib or raw) decodes to itself.
func FuzzDecodeBody(f *testing.F) {
	f.Add([]byte(`{"model":"m"}`), "gzip")
	f.Add([]byte("data: x\n\n"), "deflate")
	f.Add([]byte("\x1f\x8b\x08"), "gzip, deflate")
	f.Add([]byte("opaque"), "br")
	f.Fuzz(func(t *testing.T, data []byte, encoding string) {
		const limit = 1 << 16
		if out, err := decodeBody(data, encoding, limit); err == nil && len(out) > limit && len(out) != len(data) {
			t.Fatalf("%d bytes decoded past the limit", len(out))
		}
		if len(data) > limit {
			return
		}
		for name, w := range map[string]func(io.Writer) io.WriteCloser{
			"gzip":    func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
			"deflate": func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
			"Deflate": func(w io.Writer) io.WriteCloser { fw, _ := flate.NewWriter(w, flate.BestSpeed); return fw },
		} {
			var buf bytes.Buffer
			zw := w(&buf)
			zw.Write(data)
			zw.Close()
			out, err := decodeBody(buf.Bytes(), name, limit)
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("%s round trip: %v", name, err)
			}
		}
		if _, err := decodeBody(data, "zstd", limit); !errors.Is(err, ErrUnscannableEncoding) {
			t.Fatalf("zstd: %v, want ErrUnscannableEncoding", err)
		}
	})
}

// A body that inflates past the limit is refused, not decoded whole.
func TestDecodeBodyBound(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	if _, err := decodeBody(buf.Bytes(), "gzip", 1<<10); !errors.Is(err, ErrDecodedTooLarge) {
		t.Errorf("err %v, want ErrDecodedTooLarge", err)
	}
}
