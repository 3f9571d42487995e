package benchstream

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Responses builds a Responses stream of at least size bytes:
// function calls in rounds of three, their argument deltas interleaved, each
// 1 to 6 bytes long in its own event with the full envelope OpenAI sends
// (event line, type, sequence_number, item_id, output_index, obfuscation
// padding that changes from event to event), each call
// announced by output_item.added and confirmed by function_call_arguments.done
// and output_item.done.
func Responses(size int) (stream []byte, calls int) {
	var b bytes.Buffer
	seq := 0
	event := func(typ, body string) {
		fmt.Fprintf(&b, "event: %s\ndata: {\"type\":%q,\"sequence_number\":%d,%s}\n\n", typ, typ, seq, body)
		seq++
	}
	event("response.created", `"response":{"id":"resp_68a1c0d2e3f4","object":"response","created_at":1753345615,"status":"in_progress","model":"gpt-5.1-codex","output":[],"usage":null}`)
	args := []string{
		`{"pattern":"src/**/*.test.js","glob":"**/*.js"}`,
		`{"pattern":"a \/ b","glob":"src/**","path":"中文/目录"}`,
		`{"path":"src/calc.js","offset":1,"limit":400}`,
	}
	names := []string{"glob", "grep", "read_file"}
	item := func(n int, status, args string) string {
		q, _ := json.Marshal(args)
		return fmt.Sprintf(`"output_index":%d,"item":{"id":"fc_68a1c0d2e3f4%08d","type":"function_call","status":%q,"arguments":%s,"call_id":"call_%d","name":%q}`, n, n, status, q, n, names[n%3])
	}
	for b.Len() < size {
		for i := range args {
			event("response.output_item.added", item(calls+i, "in_progress", ""))
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
				q, _ := json.Marshal(a[pos[i] : pos[i]+n])
				event("response.function_call_arguments.delta", fmt.Sprintf(`"item_id":"fc_68a1c0d2e3f4%08d","output_index":%d,"delta":%s,"obfuscation":%q`, calls+i, calls+i, q, obfuscation(seq)))
				pos[i] += n
			}
			if !left {
				break
			}
		}
		for i, a := range args {
			q, _ := json.Marshal(a)
			event("response.function_call_arguments.done", fmt.Sprintf(`"item_id":"fc_68a1c0d2e3f4%08d","output_index":%d,"arguments":%s`, calls+i, calls+i, q))
			event("response.output_item.done", item(calls+i, "completed", a))
		}
		calls += len(args)
	}
	event("response.completed", `"response":{"id":"resp_68a1c0d2e3f4","object":"response","created_at":1753345615,"status":"completed","model":"gpt-5.1-codex","output":[],"usage":{"input_tokens":812,"output_tokens":64,"total_tokens":876}}`)
	return b.Bytes(), calls
}

// obfuscation is the padding OpenAI sends on every delta event, which
// changes from one event to the next: 2 to 9 letters and digits.
func obfuscation(seq int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 2+seq%8)
	for i := range b {
		b[i] = letters[(seq*31+i*17)%len(letters)]
	}
	return string(b)
}
