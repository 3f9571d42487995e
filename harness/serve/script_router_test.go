package serve

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/wire"
)

func readScript(t *testing.T, name, text string) gateway.Script {
	t.Helper()
	var formats []string
	for _, f := range wire.All() {
		formats = append(formats, f.Name)
	}
	s, err := gateway.ReadScriptFile(name+".yaml", []byte(text), formats, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const probeScript = `turns:
  - text: Let me look.
    calls:
      - name: glob
        arguments: '{"pattern":"*"}'
  - user_contains: thanks
    text: You are welcome.
  - text: Done.
  - status: 429
`

// post sends msgs in format f to base+case URL and returns the status and
// the body.
func postScript(t *testing.T, root, name string, f *agent.Format, model string, msgs []agent.Message) (int, []byte) {
	t.Helper()
	body, err := f.Body(model, msgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := wire.BaseURL(f, root)
	if name != "" {
		url = wire.BaseURL(f, root+"/s/"+name)
	}
	resp, err := http.Post(url+f.Path(model), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestScriptInEveryFormat: one script answers each format through its own
// Write, by turn and by the last user message, and a status turn with the
// format's error.
func TestScriptInEveryFormat(t *testing.T) {
	sr := &ScriptRouter{Scripts: []gateway.Script{readScript(t, "probe", probeScript)}}
	root := strings.TrimSuffix(serveOn(t, &Server{Route: sr.Route}), "/v1")
	user := agent.Message{Role: agent.RoleUser, Content: "hi"}
	for _, f := range wire.All() {
		t.Run(f.Name, func(t *testing.T) {
			status, body := postScript(t, root, "probe", f, "probe", []agent.Message{user})
			if status != 200 {
				t.Fatalf("%d %s", status, body)
			}
			turn, err := f.Merge(bytes.NewReader(body))
			if err != nil || turn.Text != "Let me look." || len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Function.Name != "glob" || turn.ToolCalls[0].Function.Arguments != `{"pattern":"*"}` {
				t.Fatalf("turn 1 merged as %+v, %v", turn, err)
			}
			call := turn.ToolCalls[0]
			asked := []agent.Message{user, {Role: agent.RoleAssistant, Content: turn.Text, ToolCalls: turn.ToolCalls},
				{Role: agent.RoleTool, ToolCallID: call.ID, Content: "a.txt"}, {Role: agent.RoleUser, Content: "thanks!"}}
			_, body = postScript(t, root, "probe", f, "probe", asked)
			if turn, err := f.Merge(bytes.NewReader(body)); err != nil || turn.Text != "You are welcome." {
				t.Errorf("the thanks: %+v, %v", turn, err)
			}
			_, body = postScript(t, root, "probe", f, "probe", asked[:3])
			if turn, err := f.Merge(bytes.NewReader(body)); err != nil || turn.Text != "Done." {
				t.Errorf("turn 2: %+v, %v", turn, err)
			}
			third := append(asked[:3:3], agent.Message{Role: agent.RoleAssistant, Content: "Done."}, agent.Message{Role: agent.RoleUser, Content: "more"})
			status, body = postScript(t, root, "probe", f, "probe", third)
			if want := f.ErrorBody(429, "scripted", "scripted error: 429 Too Many Requests"); status != 429 || !bytes.Equal(bytes.TrimSpace(body), want) {
				t.Errorf("turn 3: %d %s, want 429 %s", status, body, want)
			}
		})
	}
}

func TestScriptRoutes(t *testing.T) {
	other := readScript(t, "other", "turns:\n  - text: Other.\n")
	sr := &ScriptRouter{Scripts: []gateway.Script{readScript(t, "probe", probeScript), other}}
	root := strings.TrimSuffix(serveOn(t, &Server{Route: sr.Route}), "/v1")
	chat := wire.Default()
	user := []agent.Message{{Role: agent.RoleUser, Content: "hi"}}
	// the plain URL picks the script by model
	if _, body := postScript(t, root, "", chat, "other", user); !bytes.Contains(body, []byte("Other.")) {
		t.Errorf("model other: %s", body)
	}
	status, body := postScript(t, root, "", chat, "nobody", user)
	if status != 404 || !bytes.Contains(body, []byte(`no script is named \"nobody\" (the request's model): name one of probe, other, or use its URL /s/NAME/v1`)) {
		t.Errorf("model nobody: %d %s", status, body)
	}
	// a quirk route breaks the script's stream
	_, clean := postScript(t, root, "probe", chat, "probe", user)
	_, dropped := postScript(t, root, "probe~ids_dropped", chat, "probe", user)
	if !bytes.Contains(clean, []byte(`"id":"call_`)) || bytes.Contains(dropped, []byte(`"id":"call_`)) {
		t.Errorf("ids_dropped kept the call id:\n%s", dropped)
	}
	status, body = postScript(t, root, "nope", chat, "probe", user)
	if status != 404 || !bytes.Contains(body, []byte(`case \"nope\": no such case; served scripts: probe, other`)) {
		t.Errorf("an unknown script: %d %s", status, body)
	}
	status, body = postScript(t, root, "probe~nope", chat, "probe", user)
	if status != 404 || !bytes.Contains(body, []byte(`unknown quirk`)) {
		t.Errorf("an unknown quirk: %d %s", status, body)
	}
}

// TestScriptFallsThroughToCassettes: a name no script has goes to Next.
func TestScriptFallsThroughToCassettes(t *testing.T) {
	recorded := &CassetteRouter{Cassettes: servedCassettes(t, "demo"), Match: MatchTurn}
	sr := &ScriptRouter{Scripts: []gateway.Script{readScript(t, "probe", probeScript)}, Next: recorded.Route}
	root := strings.TrimSuffix(serveOn(t, &Server{Route: sr.Route}), "/v1")
	status, body := postScript(t, root, "demo", wire.Default(), "demo", []agent.Message{{Role: agent.RoleUser, Content: "x"}})
	if status != 200 || !bytes.Contains(body, []byte("glob")) {
		t.Errorf("demo through Next: %d %.200s", status, body)
	}
}

// TestScriptOfOneFormat: a script that names its format answers that one
// only.
func TestScriptOfOneFormat(t *testing.T) {
	sr := &ScriptRouter{Scripts: []gateway.Script{readScript(t, "probe", "format: messages\n"+probeScript)}}
	root := strings.TrimSuffix(serveOn(t, &Server{Route: sr.Route}), "/v1")
	status, body := postScript(t, root, "probe", wire.Default(), "probe", []agent.Message{{Role: agent.RoleUser, Content: "x"}})
	if status != 404 || !bytes.Contains(body, []byte("script probe is served in messages only (its format), and this request is chat")) {
		t.Errorf("%d %s", status, body)
	}
}
