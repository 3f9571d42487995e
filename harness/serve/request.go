package serve

import (
	"crypto/sha256"

	"github.com/agentvcr/agentvcr/agent"
)

type chatInfo struct {
	model string
	turn  int
}

// maxChatInfo bounds the bodies whose model and turn the server keeps.
const maxChatInfo = 1024

// A bodySum names a request body in what the server remembers across
// requests: its SHA-256, never the body, so that no body outlives its
// answer (60 distinct 8 MiB requests once left 927 MiB resident).
type bodySum [sha256.Size]byte

// chatInfo is the model and turn of a request body in format f
// (agent.Format.TurnOf), remembered per body: clients that replay a
// conversation send the same bodies again and again.
func (s *Server) chatInfo(f *agent.Format, path string, body []byte, sum bodySum) (string, int) {
	if f.PathModel != nil { // the model is in the path (agent.Format.TurnOf)
		sum = bodySum(sha256.Sum256(append([]byte(path+"\x00"), body...)))
	}
	s.infoMu.RLock()
	ci, ok := s.info[sum]
	s.infoMu.RUnlock()
	if ok {
		return ci.model, ci.turn
	}
	ci.model, ci.turn = f.TurnOf(path, body)
	s.infoMu.Lock()
	if s.info == nil || len(s.info) >= maxChatInfo {
		s.info = make(map[bodySum]chatInfo)
	}
	s.info[sum] = ci
	s.infoMu.Unlock()
	return ci.model, ci.turn
}
