package cassette

import (
	"path/filepath"
	"testing"

	"github.com/agentvcr/agentvcr/wire/chat"
)

func TestReadRecording(t *testing.T) {
	rec, err := ReadRecording(filepath.Join("..", "..", "cassettes", "demo.yaml"))
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
