package benchstream

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Messages builds a Messages stream of at least size bytes:
// tool_use blocks in rounds of three, each started with the {} placeholder,
// its arguments split into 1 to 6 byte input_json_delta pieces, each its own
// event with an event: line, as the API sends them.
func Messages(size int) (stream []byte, calls int) {
	var b bytes.Buffer
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":472,\"output_tokens\":2}}}\n\n")
	args := []string{
		`{"pattern":"src/**/*.test.js","glob":"**/*.js"}`,
		`{"pattern":"a \/ b","glob":"src/**","path":"中文/目录"}`,
		`{"path":"src/calc.js","offset":1,"limit":400}`,
	}
	names := []string{"glob", "grep", "read_file"}
	for b.Len() < size {
		for i, a := range args {
			fmt.Fprintf(&b, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_%024d\",\"name\":%q,\"input\":{}}}\n\n", calls, calls, names[i])
			for pos, step := 0, 0; pos < len(a); step++ {
				n := min(1+(step+i)%6, len(a)-pos)
				for n < len(a)-pos && a[pos+n]&0xC0 == 0x80 { // keep runes whole
					n++
				}
				q, _ := json.Marshal(a[pos : pos+n])
				fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":%d,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":%s}}\n\n", calls, q)
				pos += n
			}
			fmt.Fprintf(&b, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":%d}\n\n", calls)
			calls++
		}
	}
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":89}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.Bytes(), calls
}
