package chat

import (
	"encoding/json"
	"errors"
	"io"
)

// chunkDecoder decodes one chunk per call with a single json.Decoder, so the
// decoder's buffers and state are reused from chunk to chunk instead of
// allocated per chunk as json.Unmarshal does. The decoder reads from feed,
// which holds exactly the current chunk's bytes. After an error the decoder
// is unusable, which is fine: Merge stops at the first error.
type chunkDecoder struct {
	feed feedReader
	dec  *json.Decoder
	fed  int64 // bytes fed so far
}

type feedReader struct{ data []byte }

func (f *feedReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

var errTrailingData = errors.New("data after the JSON value")

func (d *chunkDecoder) decode(data []byte, c *chunk) error {
	if d.dec == nil {
		d.dec = json.NewDecoder(&d.feed)
	}
	d.feed.data = data
	d.fed += int64(len(data))
	if err := d.dec.Decode(c); err != nil {
		return err
	}
	if d.dec.InputOffset() != d.fed || len(d.feed.data) > 0 {
		return errTrailingData
	}
	return nil
}
