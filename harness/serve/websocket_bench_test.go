package serve

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// BenchmarkCycle compares one request and its 4-event Responses stream
// over HTTP (a POST on a kept-alive connection) and over a WebSocket (a
// response.create frame on one connection).
func BenchmarkCycle(b *testing.B) {
	stream := streamtest.ResponsesTurn(1)
	s := &Server{Route: func(string) (*Route, error) {
		return &Route{Answer: func(Request) (Reply, error) { return Reply{Body: stream}, nil }}, nil
	}}
	base := serveOn(b, s)
	b.Run("http", func(b *testing.B) {
		client := &http.Client{}
		b.ReportAllocs()
		for b.Loop() {
			resp, err := client.Post(base+"/responses", "application/json", strings.NewReader(wsFirst[len(`{"type":"response.create",`)-1:]))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
	b.Run("websocket", func(b *testing.B) {
		c, _, err := websocket.Dial(context.Background(), wsURL(base, "/responses"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer c.CloseNow()
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if err := c.Write(ctx, websocket.MessageText, []byte(wsFirst)); err != nil {
				b.Fatal(err)
			}
			for range 4 {
				if _, _, err := c.Read(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
