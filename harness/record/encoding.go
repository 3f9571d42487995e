package record

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrUnscannableEncoding: a body arrived in a Content-Encoding the proxy
// cannot decode, so it cannot scan it for secrets; the exchange is passed
// on untouched and not recorded. The standard library decodes gzip and
// deflate only; br and zstd would need a library in the main module, and
// neither arrives unasked: the proxy forwards no client Accept-Encoding,
// so Go's transport asks for gzip alone (and inflates it itself).
var ErrUnscannableEncoding = errors.New("agentvcr record decodes only gzip and deflate, so it cannot scan this body for secrets")

// ErrDecodedTooLarge: a compressed body inflates past the bound of what
// is recorded.
var ErrDecodedTooLarge = errors.New("the body inflates past the recording's bound")

// decodeBody undoes the Content-Encoding codings of body (listed in the
// order they were applied, "gzip", "deflate", "identity"), giving at most
// limit bytes. Deflate is the zlib format (RFC 9110), or raw deflate as
// some servers send it.
func decodeBody(body []byte, contentEncoding string, limit int) ([]byte, error) {
	codings := strings.Split(contentEncoding, ",")
	for i := len(codings) - 1; i >= 0; i-- {
		coding := strings.ToLower(strings.TrimSpace(codings[i]))
		var (
			r   io.Reader
			err error
		)
		switch coding {
		case "", "identity":
			continue
		case "gzip", "x-gzip":
			r, err = gzip.NewReader(bytes.NewReader(body))
		case "deflate":
			if zr, zerr := zlib.NewReader(bytes.NewReader(body)); zerr == nil {
				r = zr
			} else {
				r = flate.NewReader(bytes.NewReader(body))
			}
		default:
			return nil, fmt.Errorf("Content-Encoding %q: %w", coding, ErrUnscannableEncoding)
		}
		if err != nil {
			return nil, fmt.Errorf("Content-Encoding %s: %w", coding, err)
		}
		out, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
		if err != nil {
			return nil, fmt.Errorf("Content-Encoding %s: %w", coding, err)
		}
		if len(out) > limit {
			return nil, fmt.Errorf("Content-Encoding %s: over %d bytes: %w", coding, limit, ErrDecodedTooLarge)
		}
		body = out
	}
	return body, nil
}
