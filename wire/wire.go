package wire

import (
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/converse"
	"github.com/agentvcr/agentvcr/wire/gemini"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// All lists every wire format, the default (chat completions) first. It is
// the only list of formats: a new format is registered here and nowhere
// else.
func All() []*agent.Format {
	return []*agent.Format{chat.Format, messages.Format, responses.Format, gemini.Format, messages.Bedrock, messages.Vertex, converse.Format}
}

// Default is the format used when none is named: chat completions.
func Default() *agent.Format { return All()[0] }

// Names is the formats' names, in All's order.
func Names() []string {
	var names []string
	for _, f := range All() {
		names = append(names, f.Name)
	}
	return names
}

// ByName returns the format whose Name is name.
func ByName(name string) (*agent.Format, error) {
	for _, f := range All() {
		if f.Name == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unknown api %q (want %s)", name, strings.Join(Names(), ", "))
}

// ForPath returns the format that serves a POST to path (see
// agent.Format.Serves), or nil when none does.
func ForPath(path string) *agent.Format {
	for _, f := range All() {
		if f.Serves(path) {
			return f
		}
	}
	return nil
}
