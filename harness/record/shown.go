package record

import (
	"net/url"
	"strings"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

// ShownURL is a URL as agentvcr record prints it, on stderr and in the
// error bodies it answers: without userinfo and with the value of every
// secret-named query parameter (key, api-key, token...) REDACTED; as given
// when it holds neither. A URL that does not parse is not shown at all
// (its text may hold a password): "(the URL given)".
func ShownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(the URL given)"
	}
	red := cassette.Secrets(nil).RedactURL(raw)
	if u.User == nil && !strings.Contains(red, "REDACTED") {
		return raw
	}
	return red
}
