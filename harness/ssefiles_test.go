package harness

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/wire/chat"
)

func TestSSEFilesServesInOrderThenFails(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, body := range []string{"data: one\n\n", "data: two\n\n"} {
		p := filepath.Join(dir, strings.Fields(body)[1]+".sse")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	client := &http.Client{Transport: SSEFiles(files)}
	for _, want := range []string{"data: one\n\n", "data: two\n\n"} {
		resp, err := client.Post("http://sse.invalid/v1/chat/completions", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		if string(got) != want || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("got %q (%s), want %q", got, resp.Header.Get("Content-Type"), want)
		}
	}
	_, err := client.Post("http://sse.invalid/v1/chat/completions", "application/json", strings.NewReader("{}"))
	if err == nil || !strings.Contains(err.Error(), "request 3: only 2 SSE files were given") {
		t.Errorf("third request: %v", err)
	}
}

func TestQuirkTransportBreaksLiveStreams(t *testing.T) {
	base, stop := NewGateway("", testScripts()...).Start()
	defer stop()
	q, _ := QuirkByName("index_plus_1")
	client := &http.Client{Transport: QuirkTransport(http.DefaultTransport, q, 1)}
	resp, err := client.Post(base+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"parallel","messages":[{"role":"user","content":"hi"}],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"index":1,"id":"call_`) || !strings.Contains(string(body), `"index":2,"id":"call_`) {
		t.Errorf("indexes not shifted to 1 and 2:\n%s", body)
	}
	// Error responses pass untouched.
	resp, err = client.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"nosuch","stream":true}`))
	if err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("error response: %v %v", resp.StatusCode, err)
	}
}

func TestReadRecording(t *testing.T) {
	rec, err := ReadRecording(filepath.Join("..", "cassettes", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := Recording{API: chat.Format, BaseURL: "http://scripted-gateway.agentvcr.test/v1", Model: "demo", Prompt: "帮我看看这个仓库，测试为什么红", Interactions: 4}
	if rec != want {
		t.Errorf("ReadRecording = %+v, want %+v", rec, want)
	}
	if _, err := ReadRecording(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Error("a missing cassette read without error")
	}
}
