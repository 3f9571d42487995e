package serve

import (
	"fmt"
	"io"
	"net/http"

	"github.com/agentvcr/agentvcr/agent"
)

// MaxRequestBody bounds what the server reads of one request body.
const MaxRequestBody = 32 << 20

// ReadBody reads a request body of at most MaxRequestBody bytes, in one
// allocation when its length is known.
func ReadBody(r *http.Request) ([]byte, error) {
	n := r.ContentLength
	if n > MaxRequestBody {
		return nil, fmt.Errorf("the body is over %d bytes", MaxRequestBody)
	}
	if n < 0 {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBody+1))
		if err == nil && len(body) > MaxRequestBody {
			err = fmt.Errorf("the body is over %d bytes", MaxRequestBody)
		}
		return body, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

type chatInfo struct {
	model string
	turn  int
}

// maxChatInfo bounds the bodies whose model and turn the server keeps.
const maxChatInfo = 1024

// chatInfo is the model and turn of a request body in format f
// (agent.Format.TurnOf), remembered per body: clients that replay a
// conversation send the same bodies again and again.
func (s *Server) chatInfo(f *agent.Format, path string, body []byte) (string, int) {
	key := string(body)
	if f.PathModel != nil { // the model is in the path (agent.Format.TurnOf)
		key = path + "\x00" + key
	}
	s.infoMu.RLock()
	ci, ok := s.info[key]
	s.infoMu.RUnlock()
	if ok {
		return ci.model, ci.turn
	}
	ci.model, ci.turn = f.TurnOf(path, body)
	s.infoMu.Lock()
	if s.info == nil || len(s.info) >= maxChatInfo {
		s.info = make(map[string]chatInfo)
	}
	s.info[key] = ci
	s.infoMu.Unlock()
	return ci.model, ci.turn
}
