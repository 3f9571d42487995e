package conform

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

// The echo streams merge into the clean turn and carry the signature on
// every call and the reasoning as reasoning_content.
func TestEchoTransforms(t *testing.T) {
	conv, err := chatFormat.build(Request{Model: "m", Tools: AgentvcrTools()}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range echoCases() {
		body, err := c.Transform(conv.turns[0], 1)
		if err != nil {
			t.Fatal(err)
		}
		turn, err := chat.Merge(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var calls []Call
		var sigs []string
		for _, tc := range turn.ToolCalls {
			calls = append(calls, Call{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			sigs = append(sigs, signatureOf(tc.ExtraContent))
		}
		if diff := cmp.Diff(conv.want, calls); diff != "" {
			t.Errorf("%s: calls differ from the clean turn (-want +got):\n%s", c.ID, diff)
		}
		wantSigs, wantReasoning := []string{"", ""}, ""
		if c.Echo == echoSignature {
			wantSigs = []string{signatureFor(0), signatureFor(1)}
		} else {
			wantReasoning = probeReasoning
		}
		if diff := cmp.Diff([]any{wantSigs, wantReasoning, probeText}, []any{sigs, turn.ReasoningText(), turn.Text}); diff != "" {
			t.Errorf("%s: signatures, reasoning, text (-want +got):\n%s", c.ID, diff)
		}
	}
	if _, err := addSignatures(conv.turns[1], 1); err == nil {
		t.Error("addSignatures signed a turn without calls")
	}
}

func TestCheckEcho(t *testing.T) {
	sig := func(s string) json.RawMessage {
		return json.RawMessage(`{"google":{"thought_signature":"` + s + `"}}`)
	}
	request := func(reasoning string, extras ...json.RawMessage) received {
		m := Message{Role: "assistant", Reasoning: reasoning}
		for i, e := range extras {
			m.Calls = append(m.Calls, Call{ID: "c" + string(rune('1'+i)), Name: "read_file", Arguments: "{}", Extra: e})
		}
		return received{req: Request{Messages: []Message{{Role: "user", Text: "q"}, m}}}
	}
	first := received{req: Request{Messages: []Message{{Role: "user", Text: "q"}}}}
	tests := []struct {
		reason string
		echo   string
		reqs   []received
		want   string // "" for no failure
	}{
		{"both signatures sent back", echoSignature, []received{first, request("", sig(signatureFor(0)), sig(signatureFor(1)))}, ""},
		{"the second call's signature dropped", echoSignature, []received{first, request("", sig(signatureFor(0)), nil)},
			"request 2: call 2 (read_file) does not send back its thought_signature in extra_content (Gemini answers 400)"},
		{"signatures swapped", echoSignature, []received{first, request("", sig(signatureFor(1)), sig(signatureFor(0)))},
			`request 2: call 1 (read_file) sends back the thought_signature "Y29uZm9ybSB0aG91Z2h0IHNpZ25hdHVyZSAy", not "Y29uZm9ybSB0aG91Z2h0IHNpZ25hdHVyZSAx"`},
		{"reasoning sent back", echoReasoning, []received{first, request(probeReasoning, nil)}, ""},
		{"reasoning dropped in the third request", echoReasoning, []received{first, request(probeReasoning, nil), request("", nil)},
			"request 3: the tool-call turn does not send back its reasoning_content (DeepSeek answers 400)"},
		{"reasoning changed", echoReasoning, []received{first, request("Two reads.", nil)},
			`request 2: the tool-call turn sends back the reasoning_content "Two reads.", not "Two reads at once will answer this."`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			v, ok := checkEcho(Case{Echo: tt.echo}, outcome{requests: tt.reqs})
			want := tt.want
			if want == "" {
				want = tt.echo + " sent back" // what the success says
			}
			if ok != (tt.want == "") || v.details != want {
				t.Errorf("ok %v, details %q; want %q", ok, v.details, want)
			}
		})
	}
}

func TestCheckThinking(t *testing.T) {
	turn := func(reasoning string, first bool, sigs ...string) Message {
		return Message{Role: "assistant", Reasoning: reasoning, Signatures: sigs, ThinkingFirst: first,
			Calls: []Call{{ID: "t1", Name: "read_file", Arguments: "{}"}}}
	}
	tests := []struct {
		reason string
		m      Message
		want   string // "" for no failure
	}{
		{"sent back first, unchanged", turn(probeReasoning, true, probeSignature), ""},
		{"dropped", turn("", false),
			"request 2: the tool-call turn does not send back its thinking block (Anthropic answers 400 when thinking is on)"},
		{"the signature dropped", turn(probeReasoning, true, ""),
			`request 2: the tool-call turn sends back the thinking "Two reads at once will answer this." with the signatures [""], not "Two reads at once will answer this." signed "Y29uZm9ybSB0aGlua2luZyBzaWduYXR1cmU="`},
		{"after the text", turn(probeReasoning, false, probeSignature),
			"request 2: the thinking block is not the first block of the tool-call turn (Anthropic answers 400)"},
	}
	for _, tt := range tests {
		v, ok := checkThinking(2, tt.m)
		if ok != (tt.want == "") || v.details != tt.want {
			t.Errorf("%s: ok %v, details %q; want %q", tt.reason, ok, v.details, tt.want)
		}
	}
}
