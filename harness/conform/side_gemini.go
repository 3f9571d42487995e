package conform

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"

	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/wire"
)

// sideString is each string member of the JSON answerSide makes.
const sideString = "conform: a short answer to a side request"

// answerSide answers a request that asks for one whole answer rather than
// a stream on a path of a format that has such a twin (Gemini's
// :generateContent): Gemini CLI first asks a small model, not streamed, to
// rate the task (its routing classifier) and picks the turn's model from
// the answer. Such a request is no turn of the case: it gets a short JSON
// answer at once and is neither judged nor counted. The answer's text is
// a JSON object made from the request's response schema (each string
// member sideString, each number 1, each boolean false), "{}" without one.
// ok is false for any other request.
func answerSide(f Format, path string, body []byte) (serve.Reply, bool) {
	if f.PathModel == nil || f.WholePath == nil {
		return serve.Reply{}, false
	}
	if _, stream := f.PathModel(path); stream {
		return serve.Reply{}, false
	}
	var req struct {
		GenerationConfig struct {
			ResponseSchema     json.RawMessage `json:"responseSchema"`
			ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	json.Unmarshal(body, &req) // a body that does not read gets "{}"
	schema := req.GenerationConfig.ResponseJSONSchema
	if schema == nil {
		schema = req.GenerationConfig.ResponseSchema
	}
	text, _ := json.Marshal(sampleOf(schema))
	answer, _ := json.Marshal(map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"parts": []any{map[string]any{"text": string(text)}}, "role": "model"}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
	})
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return serve.Reply{Header: h, Body: answer}, true
}

// sampleOf is a small value that fits a JSON (or OpenAPI) schema: an object
// with every property, a one-item array, sideString, 1 or false.
func sampleOf(raw json.RawMessage) any {
	var s struct {
		Type       any                        `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Items      json.RawMessage            `json:"items"`
		Enum       []any                      `json:"enum"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return map[string]any{}
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	typ, _ := s.Type.(string)
	switch typ {
	case "string", "STRING":
		return sideString
	case "integer", "INTEGER", "number", "NUMBER":
		return 1
	case "boolean", "BOOLEAN":
		return false
	case "array", "ARRAY":
		return []any{sampleOf(s.Items)}
	}
	obj := map[string]any{}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		obj[k] = sampleOf(s.Properties[k])
	}
	return obj
}

// sideRequest reports whether a recorded request's URL is a side request's
// (a non-streamed path of a format that has one): recorded mode leaves it
// out, since the replay answers it apart.
func sideRequest(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	f := wire.ForPath(u.Path)
	if f == nil || f.PathModel == nil || f.WholePath == nil {
		return false
	}
	_, stream := f.PathModel(u.Path)
	return !stream
}
