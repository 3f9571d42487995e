package conform

import (
	"crypto/rand"
	"encoding/hex"
)

// markVariable names the variable that marks every process of one case's
// run of the agent: the agent gets it with a random value, the processes it
// starts inherit it, and when the case ends sweep kills whatever still
// carries it. It names neither the case nor the run: a process cannot
// guess another case's mark.
const markVariable = "AGENTVCR_CONFORM_MARK"

// newMark is a fresh random mark.
func newMark() string {
	b := make([]byte, 16)
	rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}
