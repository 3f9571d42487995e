package conform

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// websocketCases are the shapes of the Responses API's WebSocket
// transport (package responsesws), served by serve's ws-* faults on the
// case's own connection. They are run only for an agent whose clean run
// opened a WebSocket (noWebSocket): over HTTP none of them can reach it.
func websocketCases() []Case {
	const wrapped = "Codex responses_websocket.rs: error frames with a status"
	return []Case{
		{ID: "responses_ws_split", Tier: TierWebSocket, WebSocket: serve.FaultFrameSplit, Source: "RFC 6455 5.4",
			Doc: "every event a fragmented message: its halves in two frames, then an empty final frame"},
		{ID: "responses_ws_pair", Tier: TierWebSocket, Expect: ExpectSameOrBroken, WebSocket: serve.FaultFramePair, ToolTurnOnly: true, Source: "-",
			Doc: "the first call's output_item.done and the event after it in one text frame, a newline between them"},
		{ID: "responses_ws_ping", Tier: TierWebSocket, WebSocket: serve.FaultPingStorm, Source: "-",
			Doc: fmt.Sprintf("%d pings before every event, each waiting for its pong", serve.PingsPerEvent)},
		{ID: "responses_ws_close", Tier: TierWebSocket, Expect: ExpectFault, Fault: serve.FaultFrameClose, WebSocket: serve.FaultFrameClose, Source: "-",
			Doc: "the first stream's connection closed with code 1011 inside the second call, then the clean turn on a new one"},
		{ID: "responses_ws_close_bare", Tier: TierWebSocket, Expect: ExpectFault, Fault: serve.FaultFrameCloseBare, WebSocket: serve.FaultFrameCloseBare, Source: "-",
			Doc: "the first stream's connection closed by a close frame with no code inside the second call, then the clean turn"},
		{ID: "responses_ws_error", Tier: TierWebSocket, Expect: ExpectFault, Fault: serve.FaultFrameError, WebSocket: serve.FaultFrameError, Source: wrapped,
			Doc: `an in-band error frame ({"type":"error","status":500}) after the first call of the first stream; the connection stays open`},
		{ID: "responses_ws_forget", Tier: TierWebSocket, Expect: ExpectFault, Fault: serve.FaultForgetPrevious, WebSocket: serve.FaultForgetPrevious, Source: "Codex: previous_response_not_found",
			Doc: "the first continuation (previous_response_id) answered previous_response_not_found, as a server that lost the connection's state"},
		{ID: "responses_ws_refused", Tier: TierWebSocket, WebSocket: serve.FaultRefuseUpgrade, Source: "openai/codex PR #10139, #43353; icebear0828/codex-proxy #681",
			Doc: "every WebSocket upgrade refused with 426 Upgrade Required: the agent must post over HTTP and finish"},
	}
}

// upgrade is the case's Route.WebSocket: it counts the agent's handshakes
// and refuses them with 426 in responses_ws_refused.
func (st *caseState) upgrade(serve.Request) int {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.upgrades++
	if st.c.WebSocket == serve.FaultRefuseUpgrade {
		return http.StatusUpgradeRequired
	}
	return 0
}

// routeFault is the fault the case's route carries: ws-forget, which the
// server applies to the connection's first continuation.
func (st *caseState) routeFault() serve.Fault {
	if st.c.WebSocket == serve.FaultForgetPrevious {
		return serve.Fault{Kind: serve.FaultForgetPrevious}
	}
	return serve.Fault{}
}

// frameShape is the frame shape the case applies to one reply: ws-split
// and ws-ping on every reply, ws-pair on the tool turn's (at the first
// call's output_item.done; none when the turn has no call).
func (st *caseState) frameShape(turn int, body []byte) serve.Fault {
	switch st.c.WebSocket {
	case serve.FaultFrameSplit, serve.FaultPingStorm:
		return serve.Fault{Kind: st.c.WebSocket}
	case serve.FaultFramePair:
		if n := pairPoint(sse.Parse(body)); n > 0 && turn == 0 {
			return serve.Fault{Kind: serve.FaultFramePair, After: n}
		}
	}
	return serve.Fault{}
}

// pairPoint is the index of the first function_call's output_item.done
// among a Responses stream's events that send a frame; 0 when there is
// none.
func pairPoint(events []sse.Event) int {
	n := 0
	for _, ev := range events {
		if !ev.HasData || ev.Data == "[DONE]" {
			continue
		}
		var e struct {
			Type string `json:"type"`
			Item struct {
				Type string `json:"type"`
			} `json:"item"`
		}
		if json.Unmarshal([]byte(ev.Data), &e) == nil && e.Type == "response.output_item.done" && e.Item.Type == "function_call" {
			return n
		}
		n++
	}
	return 0
}

// noWebSocket is the result of a WebSocket case not run because the
// first case's agent opened no WebSocket.
func noWebSocket(c Case, first string) Result {
	return Result{Case: c, Status: Skipped, Details: fmt.Sprintf("not run: the agent opened no WebSocket in %s (it posts its requests over HTTP), and this case's shape travels on one only", first)}
}

// framed reports whether a request of the case came as a WebSocket frame.
func (st *caseState) framed() bool {
	for _, f := range st.frames {
		if f != nil {
			return true
		}
	}
	return false
}

// wsNote says, for a verdict, how many of the case's requests came as
// WebSocket frames and how many handshakes were refused; "" for an agent
// that opened none.
func (st *caseState) wsNote() string {
	frames := 0
	for _, f := range st.frames {
		if f != nil {
			frames++
		}
	}
	if st.upgrades == 0 {
		return ""
	}
	note := fmt.Sprintf("; over a WebSocket: %d of %s as frames", frames, count(len(st.bodies), "request"))
	if st.c.WebSocket == serve.FaultRefuseUpgrade {
		note = fmt.Sprintf("; %s refused with 426, %d of %s as frames", count(st.upgrades, "WebSocket upgrade"), frames, count(len(st.bodies), "request"))
	}
	return note
}
