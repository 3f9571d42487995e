package messages

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/internal/turn"
)

// VertexVersion is the anthropic_version a Messages body sent to Vertex AI
// carries, in the body.
const VertexVersion = "vertex-2023-10-16"

// Vertex AI's addressing of a publisher's model, after the base URL (a
// region's, ending in /v1):
//
//	/projects/{project}/locations/{location}/publishers/anthropic/models/{model}:streamRawPredict
//
// :rawPredict is the same request answered with one JSON message.
const (
	vertexModels = "/publishers/anthropic/models/"
	vertexStream = ":streamRawPredict"
	vertexWhole  = ":rawPredict"
)

// Vertex is Anthropic's Messages API on Google Cloud's Vertex AI: POST
// {base}/projects/{p}/locations/{l}/publishers/anthropic/models/{m}:streamRawPredict
// with the Messages body less "model" and with "anthropic_version":
// "vertex-2023-10-16", an OAuth access token as the bearer, answered with
// Anthropic's own SSE events. The project and location of the paths this
// client posts to are ANTHROPIC_VERTEX_PROJECT_ID and CLOUD_ML_REGION (the
// variables Claude Code reads; "global" when the region is unset).
var Vertex = &agent.Format{
	Name:           "vertex-anthropic",
	Title:          "Anthropic on Vertex AI",
	KeyEnv:         "VERTEX_ACCESS_TOKEN",
	BaseURLEnv:     "ANTHROPIC_VERTEX_BASE_URL",
	ExampleBaseURL: "https://aiplatform.googleapis.com/v1",
	Path:           func(model string) string { return vertexPrefix() + model + vertexStream },
	WholePath:      func(model string) string { return vertexPrefix() + model + vertexWhole },
	PathModel:      vertexPathModel,
	Serves:         func(path string) bool { _, _, ok := cutVertexPath(path); return ok },
	BasePath:       "/v1",
	Header: func(h http.Header, key string) {
		if key != "" {
			h.Set("Authorization", "Bearer "+key)
		}
	},
	Key:           vertexToken,
	Body:          VertexBody,
	Merge:         Merge,
	Check:         Check,
	Decode:        VertexDecode,
	Turn:          turn.ByRole,
	Write:         Write,
	Response:      Response,
	IsStreamEvent: func(string, []byte) bool { return false }, // Anthropic's events: a stream of them is Messages'
	ErrorEvent:    Format.ErrorEvent,
	ErrorBody:     ErrorBody,
	Carries:       Format,
}

// vertexToken is the OAuth access token of an "Authorization: Bearer"
// header, "" when there is none.
func vertexToken(h http.Header) string {
	if token, ok := strings.CutPrefix(h.Get("Authorization"), "Bearer "); ok {
		return token
	}
	return ""
}

// vertexPrefix is the path to the publisher's models of the project and
// location the environment names.
func vertexPrefix() string {
	project := cmp.Or(os.Getenv("ANTHROPIC_VERTEX_PROJECT_ID"), "PROJECT")
	location := cmp.Or(os.Getenv("CLOUD_ML_REGION"), "global")
	return "/projects/" + project + "/locations/" + location + vertexModels
}

// cutVertexPath splits a path (after any prefix) into the model and whether
// it streams; before the models, /projects/{p}/locations/{l}, each one
// segment.
func cutVertexPath(path string) (model string, stream, ok bool) {
	i := strings.LastIndex(path, vertexModels)
	if i < 0 {
		return "", false, false
	}
	head, rest := path[:i], path[i+len(vertexModels):]
	j := strings.LastIndex(head, "/projects/")
	if j < 0 {
		return "", false, false
	}
	project, location, found := strings.Cut(head[j+len("/projects/"):], "/locations/")
	if !found || project == "" || location == "" || strings.Contains(project, "/") || strings.Contains(location, "/") {
		return "", false, false
	}
	switch {
	case strings.HasSuffix(rest, vertexStream):
		model, stream = strings.TrimSuffix(rest, vertexStream), true
	case strings.HasSuffix(rest, vertexWhole):
		model = strings.TrimSuffix(rest, vertexWhole)
	default:
		return "", false, false
	}
	return model, stream, model != "" && !strings.ContainsAny(model, "/:")
}

func vertexPathModel(path string) (string, bool) {
	model, stream, _ := cutVertexPath(path)
	return model, stream
}

// vertexRequest is the body Vertex AI takes: Body's, anthropic_version in
// place of model.
type vertexRequest struct {
	AnthropicVersion string     `json:"anthropic_version"`
	MaxTokens        int        `json:"max_tokens"`
	System           string     `json:"system,omitempty"`
	Messages         []wireTurn `json:"messages"`
	Tools            []wireTool `json:"tools,omitempty"`
	Stream           bool       `json:"stream"`
}

// VertexBody is Body for Vertex AI: "anthropic_version" in place of
// "model", which the path carries.
func VertexBody(_ string, msgs []agent.Message, defs []tools.Definition) ([]byte, error) {
	req := vertexRequest{AnthropicVersion: VertexVersion, MaxTokens: MaxTokens, Stream: true}
	req.System, req.Messages = toWire(msgs)
	for _, d := range defs {
		req.Tools = append(req.Tools, wireTool{Name: d.Function.Name, Description: d.Function.Description, InputSchema: d.Function.Parameters})
	}
	return json.Marshal(req)
}

// VertexDecode is Decode for a body sent to Vertex AI, which wants an
// anthropic_version and no "model" (the path names it).
func VertexDecode(body []byte) (agent.DecodedRequest, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(body, &keys); err != nil {
		return agent.DecodedRequest{}, fmt.Errorf("body is not a Messages request: %w", err)
	}
	if _, ok := keys["model"]; ok {
		return agent.DecodedRequest{}, fmt.Errorf(`"model" is not allowed in the body: the path names the model`)
	}
	if _, ok := keys["anthropic_version"]; !ok {
		return agent.DecodedRequest{}, fmt.Errorf(`"anthropic_version" is required`)
	}
	return Decode(body)
}
