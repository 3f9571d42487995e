package conform

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/serve"
)

// Side requests (opencode's title request, Qwen Code's memory agent, Gemini
// CLI's routing classifier) are what an agent asks a model beside
// the conversation conform judges. The conversation is the requests whose
// tool names are those of the first request that offers tools; a request
// with no tools or another set is a side request: answered with a short
// reply in its format, kept (-out writes it as side-N.json), never judged,
// and never the probe.

// sideScript names the stream ids of side answers ("chatcmpl-side-1").
const sideScript = "side"

// sideText is the text of a side answer that asks for no JSON.
const sideText = "Folder overview"

// isSide reports whether req is a side request of the case, and takes the
// conversation's tools from the first request that offers any. Recorded
// mode has none: its requests are compared with the recording as they come.
func (st *caseState) isSide(req Request) bool {
	if st.recorded {
		return false
	}
	if len(req.Tools) == 0 {
		return true
	}
	names := toolNames(req.Tools)
	if st.toolset == nil {
		st.toolset = names
		return false
	}
	return !slices.Equal(st.toolset, names)
}

// toolNames are the names of tools, sorted: a tool set, whatever the order
// an agent lists it in.
func toolNames(tools []Tool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	slices.Sort(names)
	return names
}

// sideReply answers the n-th side request (from 1): streamed in the format
// when it asks for a stream, else the format's non-streamed answer; its
// text is JSON filling the required members of the schema it asks for
// (chat response_format, Responses text.format, Messages output_format,
// Gemini generationConfig), "{}" for JSON without a schema, else sideText.
func sideReply(f Format, req Request, n int) serve.Reply {
	text := sideText
	if schema, asked := askedJSON(req.Body); asked {
		text = "{}"
		if len(schema) > 0 {
			if args, err := GenerateArguments(schema, false); err == nil {
				text = args
			}
		}
	}
	model := req.Model
	if model == "" {
		model = "conform"
	}
	turn := &agent.Turn{Text: text}
	h := http.Header{}
	if req.Streams {
		h.Set("Content-Type", "text/event-stream")
		return serve.Reply{Header: h, Body: []byte(strings.Join(f.Write(model, sideScript, n-1, turn), ""))}
	}
	h.Set("Content-Type", "application/json")
	return serve.Reply{Header: h, Body: f.Response(model, sideScript, n-1, turn)}
}

// askedJSON finds in a request body the JSON answer it asks for, in any
// format's words: chat's response_format ({"type":"json_schema",
// "json_schema":{"schema":...}} or "json_object"), Responses' text.format
// ({"type":"json_schema","schema":...}), Messages' output_format or
// output_config.format, Gemini's generationConfig (responseJsonSchema or
// responseSchema, or responseMimeType application/json).
func askedJSON(body []byte) (schema json.RawMessage, asked bool) {
	var r struct {
		ResponseFormat *jsonFormat `json:"response_format"`
		Text           struct {
			Format *jsonFormat `json:"format"`
		} `json:"text"`
		OutputFormat *jsonFormat `json:"output_format"`
		OutputConfig struct {
			Format *jsonFormat `json:"format"`
		} `json:"output_config"`
		GenerationConfig struct {
			MimeType   string          `json:"responseMimeType"`
			JSONSchema json.RawMessage `json:"responseJsonSchema"`
			Schema     json.RawMessage `json:"responseSchema"`
		} `json:"generationConfig"`
	}
	if json.Unmarshal(body, &r) != nil {
		return nil, false
	}
	for _, f := range []*jsonFormat{r.ResponseFormat, r.Text.Format, r.OutputFormat, r.OutputConfig.Format} {
		if f == nil || !strings.HasPrefix(f.Type, "json") {
			continue
		}
		if f.JSONSchema.Schema != nil {
			return f.JSONSchema.Schema, true
		}
		return f.Schema, true
	}
	g := r.GenerationConfig
	switch {
	case g.JSONSchema != nil:
		return g.JSONSchema, true
	case g.Schema != nil:
		return g.Schema, true
	}
	return nil, g.MimeType == "application/json"
}

// jsonFormat is a request's answer format: its type ("text", "json_object",
// "json_schema") and schema, inline or under json_schema.
type jsonFormat struct {
	Type       string          `json:"type"`
	Schema     json.RawMessage `json:"schema"`
	JSONSchema struct {
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
}

// unroutedRequest keeps a request on a path no format serves, for -out.
func (st *caseState) unroutedRequest(sr serve.Request) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.admit(st.limits, len(sr.Body)) {
		st.unrouted = append(st.unrouted, Unrouted{Method: sr.Method, Path: sr.Path, Body: sr.Body})
	}
}

// onlySide ends the run after the first case when the agent sent side
// requests only (none offers tools): the probe has nothing to call, so no
// case can run.
func (st *caseState) onlySide() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.recorded || st.probeErr != nil || len(st.reqs) > 0 || len(st.sides) == 0 {
		return
	}
	st.probeErr = fmt.Errorf("%w: the agent offers no tools in any of its %s (answered as side requests): conform needs a request that offers tools",
		ErrNoReadOnlyTool, count(len(st.sides), "request"))
}
