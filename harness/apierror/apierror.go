package apierror

import (
	"net/http"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire"
)

// Write answers status with an error body in f's shape (agent.Format's
// ErrorBody). A nil f is the default format, the shape to use when the path
// names no format.
func Write(w http.ResponseWriter, f *agent.Format, status int, code, message string) {
	if f == nil {
		f = wire.Default()
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(f.ErrorBody(status, code, message), '\n'))
}
