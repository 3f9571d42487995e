// Package eventstream is the AWS event stream framing
// (application/vnd.amazon.eventstream), the binary framing Amazon Bedrock
// streams its answers in: a message is a prelude (total length, headers
// length, both big-endian uint32, and the CRC32 of those 8 bytes), typed
// headers (":message-type" event or exception, ":event-type",
// ":content-type", ":exception-type"), a payload, and the CRC32 (IEEE) of
// all that came before it. It is framing only, apart from any format's
// decoding, as package sse is for server-sent events.
//
// Decoder reads messages from a stream as they arrive, checking both CRCs
// and every length against the bounds (a message of at most MaxMessage
// bytes, headers of at most MaxHeaders); each problem is an error wrapping
// ErrBadMessage that names it and the message's offset, and a stream cut
// inside a message is ErrTruncated. Append writes one message, for a
// server. Header values have the ten types of the format (HeaderType).
//
// It is our own reader, not the AWS SDK for Go v2's eventstream package:
// the format is small, ours names each problem and bounds what it reads
// before it allocates, and the main module takes no AWS dependency; the
// SDK's decoder is run over the same bytes in an examples/ module of its
// own, to check that the two agree.
package eventstream
