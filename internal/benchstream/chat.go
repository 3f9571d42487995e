package benchstream

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Chat builds a chat-completions stream of at least size bytes: parallel calls in
// rounds of three, interleaved, their arguments split into 1 to 6 byte
// fragments, each fragment in its own chunk with a full OpenAI envelope.
func Chat(size int) (stream []byte, calls int) {
	var b bytes.Buffer
	frag := func(index int, args string) {
		q, _ := json.Marshal(args)
		fmt.Fprintf(&b, `data: {"id":"chatcmpl-BwoiPTGRbKkY5rncfaM0s9KtWrq5N","object":"chat.completion.chunk","created":1753345615,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]},"logprobs":null,"finish_reason":null}]}`+"\n\n", index, q)
	}
	for b.Len() < size {
		args := []string{
			`{"pattern":"src/**/*.test.js","glob":"**/*.js"}`,
			`{"pattern":"a \/ b","glob":"src/**","path":"中文/目录"}`,
			`{"path":"src/calc.js","offset":1,"limit":400}`,
		}
		names := []string{"glob", "grep", "read_file"}
		for i, n := range names {
			fmt.Fprintf(&b, `data: {"id":"chatcmpl-BwoiPTGRbKkY5rncfaM0s9KtWrq5N","object":"chat.completion.chunk","created":1753345615,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":%q,"arguments":""}}]},"logprobs":null,"finish_reason":null}]}`+"\n\n", calls+i, calls+i, n)
		}
		pos := make([]int, len(args))
		for step := 0; ; step++ {
			left := false
			for i, a := range args {
				if pos[i] >= len(a) {
					continue
				}
				left = true
				n := min(1+(step+i)%6, len(a)-pos[i])
				for n < len(a)-pos[i] && a[pos[i]+n]&0xC0 == 0x80 { // keep runes whole
					n++
				}
				frag(calls+i, a[pos[i]:pos[i]+n])
				pos[i] += n
			}
			if !left {
				break
			}
		}
		calls += len(args)
	}
	b.WriteString(`data: {"id":"chatcmpl-BwoiPTGRbKkY5rncfaM0s9KtWrq5N","object":"chat.completion.chunk","created":1753345615,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes(), calls
}
