package record

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/messages"
	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// bedrockAnswer is a clean Bedrock answer, framed, with text in its chunks.
func bedrockAnswer(text string) []byte {
	logical := strings.Join(messages.Bedrock.Write("m", "rec", 0, &agent.Turn{Text: text}), "")
	return sse.Framed(messages.Bedrock, []byte(logical))
}

// bedrockUpstream answers every request with body, a message per write.
func bedrockUpstream(t *testing.T, body []byte) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		for _, m := range messages.Bedrock.Framing.Split(body) {
			w.Write(m)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// postBedrock sends a SigV4-signed-looking request with a session token
// through the proxy and returns what the client read.
func postBedrock(t *testing.T, base string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(base, "/v1")+"/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream",
		strings.NewReader(`{"anthropic_version":"bedrock-2023-05-31","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIAAGENTVCREXAMPLE/20261207/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7")
	req.Header.Set("X-Amz-Security-Token", "IQoJb3JpZ2luX2VjEAgentvcrSessionTokenExample")
	req.Header.Set("X-Amz-Date", "20261207T120000Z")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return got
}

// A Bedrock answer is binary: the cassette keeps it as YAML !!binary, which
// go-vcr v2 reads back to the same bytes, with a time per message; the
// SigV4 signature and the session token are not in the file.
func TestRecordBedrockEventStream(t *testing.T) {
	answer := bedrockAnswer("看 \"a\"")
	upstream := bedrockUpstream(t, answer)
	path := filepath.Join(t.TempDir(), "bedrock.yaml")
	p, base, stop := proxyOn(t, upstream.URL, path)
	if got := postBedrock(t, base); !bytes.Equal(got, answer) {
		t.Fatalf("the client read %d bytes, not the upstream's %d", len(got), len(answer))
	}
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7", "AKIAAGENTVCREXAMPLE", "IQoJb3JpZ2luX2VjEAgentvcrSessionTokenExample"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the cassette holds %s", secret)
		}
	}
	if !bytes.Contains(data, []byte("body: !!binary ")) {
		t.Errorf("the answer is not kept as !!binary:\n%s", data)
	}
	c, err := vcr.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	i := c.Interactions[0]
	if !bytes.Equal([]byte(i.Response.Body), answer) {
		t.Errorf("go-vcr reads back %d bytes, not the %d recorded", len(i.Response.Body), len(answer))
	}
	if !strings.HasSuffix(i.Request.URL, "/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream") {
		t.Errorf("recorded URL %s", i.Request.URL)
	}
	at, err := cassette.ParseEventTimes(i.Response.Headers.Get(cassette.EventTimesHeader))
	if want := len(messages.Bedrock.Framing.Split(answer)); err != nil || len(at) != want {
		t.Errorf("%d event times (%v), want one per message, %d", len(at), err, want)
	}
}

// A key the client sent, echoed back inside Bedrock chunks (base64, and cut
// into text deltas, where no text search finds it), stops the recording:
// the scan reads the chunks and joins their deltas' text.
func TestRecordBedrockScansTheChunks(t *testing.T) {
	const key = "ABSKQmVkcm9ja0FQSUtleS1hZ2VudHZjci1leGFtcGxl"
	upstream := bedrockUpstream(t, bedrockAnswer("your key is "+key))
	path := filepath.Join(t.TempDir(), "bedrock.yaml")
	p, base, stop := proxyOn(t, upstream.URL, path)
	req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(base, "/v1")+"/model/m/invoke-with-response-stream", strings.NewReader(`{"anthropic_version":"bedrock-2023-05-31","messages":[]}`))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	stop()
	err = p.Stop()
	if err == nil || !strings.Contains(err.Error(), "in interaction 1 response body (JSON text of $#0.delta.text); nothing was written") {
		t.Fatalf("Stop: %v, want the key found in the chunks", err)
	}
	if data, _ := os.ReadFile(path); bytes.Contains(data, []byte(key)) {
		t.Error("the key reached the cassette file")
	}
}
