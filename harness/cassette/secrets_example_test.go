package cassette_test

import (
	"fmt"
	"net/http"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

// A recording proxy treats every auth header value as a secret: it scrubs
// each interaction before saving and scans what it would write.
func ExampleSecrets() {
	h := http.Header{"Authorization": {"Bearer sk-proxy-0123456789abcdef"}}
	secrets := cassette.HeaderSecrets(h)
	i := &vcr.Interaction{
		Request:  vcr.Request{Method: "POST", URL: "https://gw.example/v1/chat/completions", Body: `{"k":"\u0073k-proxy-0123456789abcdef"}`},
		Response: vcr.Response{Code: 200, Body: "data: {\"c\":\"sk-proxy-01234\"}\n\ndata: {\"c\":\"56789abcdef\"}\n\n"},
	}
	secrets.RedactInteraction(i)
	fmt.Println(i.Request.Body)
	fmt.Println(secrets.Scan([]*vcr.Interaction{i}))
	// Output:
	// {"k":"REDACTED"}
	// secret 2 in interaction 1 response body (JSON text of $.c): secret found in the saved cassette
}
