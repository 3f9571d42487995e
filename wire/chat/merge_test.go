package chat

import (
	"testing"

	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// streamFixtures lists testdata/streams/*.sse; each begins with a comment line
// that says which quirk it reproduces and where that shape was seen.
func streamFixtures(t testing.TB) []string {
	return streamtest.Fixtures(t, "testdata/streams")
}
