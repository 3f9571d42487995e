package cli

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// freePort returns a loopback address nothing listens on (for a moment).
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// A real SIGINT (or SIGTERM) ends agentvcr record in a subprocess: it saves
// what went through it, or says nothing did.
func TestRecordSavesOnSignal(t *testing.T) {
	const key = "sk-test-record-signal-0123456789abcdef"
	gw, stopGW := gateway.New(key, demo.Scripts(tools.ZH)...).Start()
	defer stopGW()
	tests := []struct {
		reason   string
		signal   os.Signal
		requests int
		wantCode int
		wantErr  []string
	}{
		{"SIGINT after a request saves it", os.Interrupt, 1, 0, []string{"agentvcr record: saved 1 interactions to REC"}},
		{"SIGTERM the same", syscall.SIGTERM, 1, 0, []string{"agentvcr record: saved 1 interactions to REC"}},
		{"SIGINT before any request says so", os.Interrupt, 0, 1, []string{"agentvcr record: nothing was recorded (no request came through): REC was not written"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			dir := t.TempDir()
			rec := filepath.Join(dir, "rec.yaml")
			addr := freePort(t)
			cmd, lines := child(t, ctx, "ctx", dir, "record", "-upstream", gw, "-o", rec, "-listen", addr)
			await(t, ctx, lines, "agentvcr record: forwarding to "+gw+"; Ctrl-C saves "+rec)
			for range tt.requests {
				c := &agent.Client{BaseURL: "http://" + addr + "/v1", APIKey: key, Model: demo.ScriptDemo, Format: chat.Format}
				if _, err := c.Complete(ctx, []agent.Message{{Role: agent.RoleUser, Content: "hi"}}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := cmd.Process.Signal(tt.signal); err != nil {
				t.Fatal(err)
			}
			got, code := rest(t, cmd, lines)
			if ctx.Err() != nil {
				t.Fatal("record did not end within the guard")
			}
			for i := range tt.wantErr {
				tt.wantErr[i] = strings.ReplaceAll(tt.wantErr[i], "REC", rec)
			}
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("stderr after the signal (-want +got):\n%s", diff)
			}
			_, err := os.Stat(rec)
			if saved := err == nil; saved != (tt.requests > 0) {
				t.Errorf("cassette saved: %v, want %v", saved, tt.requests > 0)
			}
		})
	}
}
