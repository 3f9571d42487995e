package benchcassette

import (
	"fmt"
	"strings"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"

	"github.com/agentvcr/agentvcr/cassettes"
)

// OneReplyCassette builds a go-vcr cassette of about size bytes of stream
// that `agentvcr run -cassette` replays with one request: the demo
// cassette's first request, answered by one chat-completions text stream
// of many small deltas (96 bytes of text each). Replay and serve memory are
// measured on it: BenchmarkReplayOneReply, and
// tools/bench/gencassette writes it to a file.
func OneReplyCassette(size int) ([]byte, error) {
	data, err := cassettes.FS.ReadFile("demo.yaml")
	if err != nil {
		return nil, err
	}
	// yaml.v3 and not harness/cassette, which imports the formats whose
	// benchmarks use this package
	c := vcr.New("")
	if err := yaml.Unmarshal(data, c); err != nil {
		return nil, err
	}
	c.Interactions = c.Interactions[:1]
	var body strings.Builder
	piece := strings.Repeat("回放", 16) // 96 bytes of text per delta
	for n := 0; body.Len() < size; n++ {
		fmt.Fprintf(&body, "data: {\"id\":\"chatcmpl-big\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,\"model\":\"demo\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s %d\"},\"finish_reason\":null}]}\n\n", piece, n)
	}
	body.WriteString("data: {\"id\":\"chatcmpl-big\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,\"model\":\"demo\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	c.Interactions[0].Response.Body = body.String()
	return yaml.Marshal(c)
}
