// Package sse reads and writes server-sent-event framing, the bytes every
// wire format's stream travels in, without interpreting the data.
//
// Parse splits a body into Events: each one's comment lines, its "event:"
// name and its data lines joined with "\n" (HasData tells an empty data
// line from none). Format writes Events back with the line end you choose
// ("\n", or "\r\n" for the CRLF shape), comments first, then the name,
// then one "data: " line per data line, then a blank line; for a clean
// stream Format(Parse(b), "\n") is b. SplitEvents cuts a body after each
// blank line without parsing it, so the pieces joined are the body byte
// for byte: what a server writes and flushes one event at a time.
// FirstEventEnd is where SplitEvents would cut the first event (0 before
// its blank line has come), for a reader of a stream arriving in pieces.
//
// Rules and limits: lines may end in CRLF, LF or a bare CR, also mixed;
// "data:" is read with or without its one space; id: and retry: fields are
// dropped by Parse (SplitEvents keeps every byte). An event ends at a blank
// line or at the end of the body. Nothing here knows a wire format: finding
// the format of a stream is wire.Detect's job, reading its events the
// format's merger's.
package sse
