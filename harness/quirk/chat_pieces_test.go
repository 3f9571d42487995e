package quirk

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// The piece quirks refuse a stream they would change the meaning of: the
// cumulative shapes a call whose arguments are not valid JSON (the bad_args
// script), name_in_pieces a name of one rune.
func TestChatPieceQuirksNotApplicable(t *testing.T) {
	stream := func(name, args string) []byte {
		return []byte(strings.Join(gateway.Stream(chat.Format, "m", "s", 0, gateway.ScriptTurn{Calls: []gateway.ScriptCall{{Name: name, Arguments: args}}}), ""))
	}
	bad := stream("glob", `{"pattern":"*"`)
	for _, name := range []string{"args_cumulative", "args_repeated_at_end"} {
		_, err := mustQuirk(name).Apply(bad, 1)
		if !errors.Is(err, ErrNotApplicable) || !strings.HasSuffix(err.Error(), "has arguments that are not valid JSON: quirk does not apply to this stream") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	_, err := mustQuirk("name_in_pieces").Apply(stream("g", `{}`), 1)
	if !errors.Is(err, ErrNotApplicable) || err.Error() != `call 1's name "g" cannot be cut: quirk does not apply to this stream` {
		t.Errorf("name_in_pieces: err = %v", err)
	}
}
