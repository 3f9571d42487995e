package eventstream

import (
	"errors"
	"mime"
)

// MediaType is the Content-Type of an AWS event stream.
const MediaType = "application/vnd.amazon.eventstream"

// IsMediaType reports whether a Content-Type names an AWS event stream, in
// any case, with any parameters, as media types are compared.
func IsMediaType(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return (err == nil || errors.Is(err, mime.ErrInvalidMediaParameter)) && media == MediaType
}
