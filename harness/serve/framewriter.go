package serve

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/agentvcr/agentvcr/harness/responsesws"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// errFrameFault is what a frameWriter's Write returns once a frame fault
// ended the response: the stream stops writing, as it does for a client
// that went away.
var errFrameFault = errors.New("a frame fault ended the response")

// A frameWriter is the http.ResponseWriter a WebSocket cycle is answered
// through: the handler that writes an SSE reply (answer, stream) writes to
// it, and each whole event it is flushed with leaves as one text frame
// (responsesws.Frames); a reply with an error status leaves, at finish, as
// one in-band error frame (responsesws.ErrorFrame). So the faults, pacing
// and journal of HTTP apply to frames unchanged; a Rechunk's pieces are
// joined back into events, since a frame holds whole events.
type frameWriter struct {
	conn    *websocket.Conn
	ctx     context.Context
	timeout time.Duration // bounds each frame's write: a client that stops reading
	header  http.Header
	status  int
	pending []byte // written, not yet a whole event
	body    []byte // an error reply's body
	sent    []byte // the events sent as frames, as SSE: what the connection holds
	fault   Fault  // a frame fault (BreaksFrames), set by answer
	frames  int    // event frames sent
	paired  []byte // FaultFramePair: the frame waiting for the next one
	broken  string // the frame fault that ended the response ("" while none did)
	ended   bool   // a terminal event was sent (responsesws.Terminal)
	err     error  // the first write that failed
}

func (fw *frameWriter) Header() http.Header {
	if fw.header == nil {
		fw.header = http.Header{}
	}
	return fw.header
}

func (fw *frameWriter) WriteHeader(status int) {
	if fw.status == 0 {
		fw.status = status
	}
}

func (fw *frameWriter) Write(p []byte) (int, error) {
	if fw.status == 0 {
		fw.status = http.StatusOK
	}
	if fw.status != http.StatusOK {
		fw.body = append(fw.body, p...)
		return len(p), nil
	}
	if fw.err != nil {
		return 0, fw.err
	}
	fw.pending = append(fw.pending, p...)
	return len(p), nil
}

// Flush sends every whole event written so far.
func (fw *frameWriter) Flush() {
	if fw.status != http.StatusOK || fw.err != nil {
		return
	}
	end := 0
	for _, e := range sse.SplitEvents(fw.pending) {
		if !bytes.HasSuffix(e, []byte("\n\n")) && !bytes.HasSuffix(e, []byte("\r\n\r\n")) && !bytes.HasSuffix(e, []byte("\r\r")) {
			break // the last piece of an event still being written
		}
		end += len(e)
		if fw.event(e) != nil {
			return
		}
	}
	fw.pending = fw.pending[end:]
}

// finish sends what is left once the handler returned: the last event (an
// unended one too), a frame held for pairing, or the error frame of a
// refusal.
func (fw *frameWriter) finish() error {
	if fw.status != 0 && fw.status != http.StatusOK {
		return fw.send(responsesws.ErrorFrame(fw.status, fw.header, fw.body))
	}
	fw.Flush()
	if len(bytes.TrimSpace(fw.pending)) > 0 && fw.err == nil {
		fw.event(fw.pending)
	}
	fw.pending = nil
	if fw.paired != nil && fw.err == nil {
		fw.send(fw.paired)
		fw.paired = nil
	}
	return fw.err
}

// event sends one SSE event as its frame, through the frame fault.
func (fw *frameWriter) event(e []byte) error {
	frames := responsesws.Frames(e)
	if len(frames) == 0 {
		return fw.err // a comment or [DONE]: nothing to send
	}
	frame := frames[0]
	f := fw.fault
	if f.Kind != "" && fw.frames == f.EventsBefore() {
		switch f.Kind {
		case FaultFrameClose:
			return fw.close(websocket.StatusInternalError, "agentvcr fault: the gateway closed the connection mid-stream")
		case FaultFrameCloseBare:
			return fw.close(websocket.StatusNoStatusRcvd, "")
		case FaultFrameError:
			fw.send(responsesws.ErrorFrame(http.StatusInternalServerError, nil, []byte(`{"error":{"type":"server_error","code":"server_error","message":"agentvcr fault: the gateway failed mid-stream"}}`)))
			fw.broken = f.Kind
			if fw.err == nil {
				fw.err = errFrameFault
			}
			return fw.err
		case FaultFramePair:
			fw.paired = frame
			fw.frames++
			fw.sent = append(fw.sent, e...)
			fw.ended = fw.ended || responsesws.Terminal(frame)
			return nil
		}
	}
	if fw.paired != nil {
		frame = append(append(fw.paired, '\n'), frame...)
		fw.paired = nil
	}
	if f.Kind == FaultPingStorm {
		fw.pings()
	}
	var err error
	if f.Kind == FaultFrameSplit {
		err = fw.sendSplit(frame)
	} else {
		err = fw.send(frame)
	}
	if err == nil {
		fw.frames++
		fw.sent = append(fw.sent, e...)
		fw.ended = fw.ended || responsesws.Terminal(frame)
	}
	return err
}

// send writes one text frame within the write timeout.
func (fw *frameWriter) send(frame []byte) error {
	if fw.err != nil {
		return fw.err
	}
	ctx, cancel := context.WithTimeout(fw.ctx, fw.timeout)
	defer cancel()
	if err := fw.conn.Write(ctx, websocket.MessageText, frame); err != nil {
		fw.err = err
	}
	return fw.err
}

// sendSplit writes one text message in pieces: its first half in one
// frame, the rest in a continuation frame, and an empty continuation frame
// that ends the message (the library ends a message it was given in pieces
// so): one message still, which the client's library must join.
func (fw *frameWriter) sendSplit(frame []byte) error {
	if fw.err != nil {
		return fw.err
	}
	ctx, cancel := context.WithTimeout(fw.ctx, fw.timeout)
	defer cancel()
	w, err := fw.conn.Writer(ctx, websocket.MessageText)
	if err == nil {
		half := len(frame) / 2
		if _, err = w.Write(frame[:half]); err == nil {
			_, err = w.Write(frame[half:])
		}
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fw.err = err
	}
	return fw.err
}

// pings sends PingsPerEvent pings, each waiting for its pong (the
// connection's reader answers them); a pong that does not come within the
// write timeout ends the storm, not the response.
func (fw *frameWriter) pings() {
	for range PingsPerEvent {
		ctx, cancel := context.WithTimeout(fw.ctx, fw.timeout)
		err := fw.conn.Ping(ctx)
		cancel()
		if err != nil {
			return
		}
	}
}

// close ends the connection with a close frame (code StatusNoStatusRcvd
// sends one with no code at all) and waits, at most 5 s, for the client's
// own close frame, as the close handshake asks.
func (fw *frameWriter) close(code websocket.StatusCode, reason string) error {
	fw.broken = fw.fault.Kind
	fw.err = errFrameFault
	fw.conn.Close(code, reason)
	return fw.err
}
