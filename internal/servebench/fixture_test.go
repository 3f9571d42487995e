package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The aimock fixture carries the recorded turn: the same text and calls.
func TestWriteFixture(t *testing.T) {
	req, reply, err := firstInteraction(filepath.Join("..", "..", "cassettes", "parallel.en.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "fixture.json")
	if err := writeFixture(out, req, reply); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "fixtures": [
    {
      "match": {
        "userMessage": "Look at this repository: why are the tests red?"
      },
      "response": {
        "content": "Listing the JS files and searching for divide at the same time.",
        "toolCalls": [
          {
            "id": "call_c00982eb80be3fda00000000",
            "name": "glob",
            "arguments": "{\"pattern\":\"**/*.js\"}"
          },
          {
            "id": "call_c00983eb80be418d00000001",
            "name": "grep",
            "arguments": "{\"pattern\":\"divide\",\"glob\":\"**/*.js\"}"
          }
        ]
      }
    }
  ]
}
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("fixture (-want +got):\n%s", diff)
	}
	if err := writeFixture(out, []byte(`{"messages":[{"role":"system","content":"x"}]}`), reply); err == nil || err.Error() != "the request has no user message to match on" {
		t.Errorf("a request without a user message: %v", err)
	}
}
