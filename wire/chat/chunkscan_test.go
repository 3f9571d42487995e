package chat

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every chunk in the fixtures is one the scanner understands, and it decodes
// it as encoding/json does: the fast path is the path real streams take.
func TestScanChunkFixtures(t *testing.T) {
	chunks := 0
	for _, data := range fixtureData(t) {
		data = bytes.TrimSpace(data)
		if len(data) == 0 || data[0] != '{' {
			continue // [DONE], null, the text of an event: error
		}
		fast, slow, fastOK, slowErr := decodeBothWays(data, nil)
		if slowErr != nil {
			continue // an error event's body that is not a chunk
		}
		chunks++
		if !fastOK {
			t.Errorf("scanner declined %s", data)
			continue
		}
		if diff := cmp.Diff(slow, fast, chunkCmp); diff != "" {
			t.Errorf("chunk differs for %s (-json +scanner):\n%s", data, diff)
		}
	}
	if chunks < 100 {
		t.Fatalf("only %d chunks in the fixtures", chunks)
	}
}

// Every fixture merges to the same turn and error with and without the scanner.
func TestMergeScannerMatchesJSON(t *testing.T) {
	for _, path := range streamFixtures(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sse"), func(t *testing.T) {
			wantTurn, wantErr := merge(bytes.NewReader(raw), true)
			gotTurn, gotErr := merge(bytes.NewReader(raw), false)
			if diff := cmp.Diff(wantTurn, gotTurn); diff != "" {
				t.Errorf("turn (-json +scanner):\n%s", diff)
			}
			if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
				t.Errorf("error = %v, encoding/json path gave %v", gotErr, wantErr)
			}
		})
	}
}

func TestScanChunk(t *testing.T) {
	tests := []struct {
		reason string
		data   string
		fast   bool // the scanner decodes it; else it must decline
	}{
		{"a full OpenAI chunk", `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi \"x\" \u4e2d"},"logprobs":null,"finish_reason":null}]}`, true},
		{"whitespace everywhere", " {\t\"choices\" :\r\n[ { \"delta\" : { \"content\" : \"a\" } , \"finish_reason\" : \"stop\" } ] } ", true},
		{"arguments as an object, kept raw", `{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":{"a":[1,2.5e3,true,false,null,{}],"b":"\/"}}}]}}]}`, true},
		{"nulls everywhere", `{"object":null,"choices":[null,{"delta":null,"finish_reason":null},{"delta":{"content":null,"tool_calls":[null,{"index":null,"id":null,"function":null}]}}],"usage":null,"error":null}`, true},
		{"usage with details", `{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":-3,"total_tokens":9,"prompt_tokens_details":{"cached_tokens":0}}}`, true},
		{"error object kept raw", `{"error":{"message":"boom","code":502}}`, true},
		{"object error with members", `{"object":"error","message":"m","type":"t","code":"c"}`, true},
		{"any key with escapes or non-ASCII is declined: it might spell a field", `{"x\u0041":1,"é":"ü","choices":[]}`, false},
		{"unknown values with escapes and non-ASCII are skipped", `{"x":"\u0041é\ud83d\ude00","choices":[]}`, true},
		{"negative and large index", `{"choices":[{"delta":{"tool_calls":[{"index":-123456789012345678}]}}]}`, true},
		{"empty object", `{}`, true},
		{"not an object", `[1]`, false},
		{"null chunk", `null`, false},
		{"trailing data", `{"choices":[]} {}`, false},
		{"key in another case", `{"Choices":[{"delta":{"content":"x"}}]}`, false},
		{"nested key in another case", `{"choices":[{"delta":{"CONTENT":"x"}}]}`, false},
		{"escaped key spelling a field", `{"obj\u0065ct":"error"}`, false},
		{"non-ASCII key that folds onto a field (Kelvin sign)", "{\"usage\":{\"total_to\u212aens\":3}}", false},
		{"duplicate key", `{"usage":{"total_tokens":1},"usage":{"prompt_tokens":2}}`, false},
		{"duplicate choices", `{"choices":[{"delta":{"content":"a"}}],"choices":[{"finish_reason":"stop"}]}`, false},
		{"escaped id", `{"choices":[{"delta":{"tool_calls":[{"id":"c\u0031"}]}}]}`, false},
		{"invalid UTF-8 in a name", "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"a\xffb\"}}]}}]}", false},
		{"index as a float", `{"choices":[{"delta":{"tool_calls":[{"index":1.0}]}}]}`, false},
		{"index as a string", `{"choices":[{"delta":{"tool_calls":[{"index":"1"}]}}]}`, false},
		{"index with 19 digits", `{"choices":[{"delta":{"tool_calls":[{"index":1234567890123456789}]}}]}`, false},
		{"content not a string", `{"choices":[{"delta":{"content":5}}]}`, false},
		{"finish_reason not a string", `{"choices":[{"finish_reason":1}]}`, false},
		{"tokens as a float", `{"usage":{"total_tokens":1e3}}`, false},
		{"control character in a string", "{\"model\":\"a\tb\"}", false},
		{"bad escape", `{"model":"\x"}`, false},
		{"short unicode escape", `{"model":"\u12"}`, false},
		{"leading zero", `{"created":01}`, false},
		{"trailing comma", `{"choices":[],}`, false},
		{"trailing comma in array", `{"x":[1,]}`, false},
		{"missing colon", `{"choices" []}`, false},
		{"bad literal", `{"x":nul}`, false},
		{"unterminated", `{"choices":[{"delta":{"content":"ab`, false},
		{"too deep to skip", `{"x":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`, false},
	}
	for _, tt := range tests {
		fast, slow, fastOK, slowErr := decodeBothWays([]byte(strings.TrimSpace(tt.data)), nil)
		if fastOK != tt.fast {
			t.Errorf("%s: scanner accepted = %v, want %v (%s)", tt.reason, fastOK, tt.fast, tt.data)
			continue
		}
		if !fastOK {
			continue
		}
		if slowErr != nil {
			t.Errorf("%s: encoding/json rejects what the scanner accepted: %v", tt.reason, slowErr)
			continue
		}
		if diff := cmp.Diff(slow, fast, chunkCmp); diff != "" {
			t.Errorf("%s: chunk (-json +scanner):\n%s", tt.reason, diff)
		}
	}
}

// The scanner keeps content and arguments as their quoted bytes; the values
// a chunk repeats are not allocated.
func TestScanChunkAllocations(t *testing.T) {
	data := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"x","tool_calls":[{"index":0,"function":{"arguments":"{\"a\""}}]},"logprobs":null,"finish_reason":"tool_calls"}]}`)
	var c chunk
	allocs := testing.AllocsPerRun(100, func() {
		c.reset()
		if !scanChunk(data, &c, nil) {
			t.Fatal("declined")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per chunk, want 0", allocs)
	}
	// Nor when the chunk's head is remembered and compared: the bytes are
	// kept once.
	var h chunkHead
	allocs = testing.AllocsPerRun(100, func() {
		c.reset()
		if !scanChunk(data, &c, &h) {
			t.Fatal("declined")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per chunk with its head remembered, want 0", allocs)
	}
}
