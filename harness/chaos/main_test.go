package chaos_test

import (
	"os"
	"testing"

	"github.com/agentvcr/agentvcr/internal/racetest"
)

// Its tests mostly wait on agents, servers and stall timeouts: more of
// them run at once than there are cores (racetest.RunWaiting).
func TestMain(m *testing.M) {
	os.Exit(racetest.RunWaiting(m))
}
