package messages

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/internal/bedrock"
	"github.com/agentvcr/agentvcr/wire/internal/turn"
)

// BedrockVersion is the anthropic_version a Messages body sent to Amazon
// Bedrock carries, in the body: Bedrock takes no anthropic-version header.
const BedrockVersion = "bedrock-2023-05-31"

// The methods of Bedrock's runtime API for one model: the stream
// (InvokeModelWithResponseStream) and the whole answer (InvokeModel).
const (
	bedrockStream = "invoke-with-response-stream"
	bedrockWhole  = "invoke"
)

// Bedrock is Anthropic's Messages API on Amazon Bedrock, through
// InvokeModelWithResponseStream: POST
// {base}/model/{modelId}/invoke-with-response-stream with the Messages body
// less "model" and "stream" and with "anthropic_version":
// "bedrock-2023-05-31", answered in Bedrock's event stream framing (each
// Messages event a base64 chunk; errors as exceptions). The model is in the
// path; /invoke is the same request answered with one JSON message. A
// request is signed with AWS SigV4, or carries a Bedrock API key as a
// bearer token (AWS_BEARER_TOKEN_BEDROCK), which is what this client sends.
// Every Messages rule, merger and quirk applies to the events the chunks
// carry.
var Bedrock = &agent.Format{
	Name:           "bedrock",
	Title:          "Anthropic on Amazon Bedrock",
	KeyEnv:         "AWS_BEARER_TOKEN_BEDROCK",
	BaseURLEnv:     "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
	ExampleBaseURL: "https://bedrock-runtime.us-east-1.amazonaws.com",
	Path:           func(model string) string { return bedrock.ModelPrefix + url.PathEscape(model) + "/" + bedrockStream },
	WholePath:      func(model string) string { return bedrock.ModelPrefix + url.PathEscape(model) + "/" + bedrockWhole },
	PathModel:      bedrockPathModel,
	APIPath:        bedrockAPIPath,
	Serves:         func(path string) bool { _, _, ok := cutBedrockPath(path); return ok },
	BasePath:       "",
	Header:         bedrock.Header,
	Key:            bedrock.BearerKey,
	Body:           BedrockBody,
	Merge:          func(r io.Reader) (*agent.Turn, error) { return Merge(bedrockLogical(r)) },
	Check:          Check,
	Decode:         BedrockDecode,
	Turn:           turn.ByRole,
	Write:          BedrockWrite,
	Response:       Response,
	IsStreamEvent:  func(string, []byte) bool { return false }, // its events are Anthropic's: Detect finds it by its framing
	ErrorEvent:     "event: error\n" + `data: {"type":"error","error":{"type":"modelStreamErrorException","message":"agentvcr fault: the gateway failed mid-stream"}}` + "\n\n",
	ErrorBody:      bedrock.ErrorBody,
	Framing:        bedrockFraming,
	Carries:        Format,
}

// bedrockLogical reads a Bedrock stream, framed or already Messages SSE.
func bedrockLogical(r io.Reader) io.Reader {
	f := agent.Format{Framing: bedrockFraming}
	return f.LogicalStream(r)
}

// cutBedrockPath splits a path into the model id and whether it streams.
func cutBedrockPath(path string) (model string, stream, ok bool) {
	return bedrock.CutPath(path, bedrockStream, bedrockWhole)
}

// bedrockAPIPath is the path from /model/ on (bedrock.APIPath).
func bedrockAPIPath(path string) (string, bool) {
	if _, _, ok := cutBedrockPath(path); !ok {
		return "", false
	}
	return bedrock.APIPath(path), true
}

func bedrockPathModel(path string) (string, bool) {
	model, stream, _ := cutBedrockPath(path)
	return model, stream
}

// bedrockRequest is the body Bedrock takes: Body's, with anthropic_version
// first and neither model nor stream.
type bedrockRequest struct {
	AnthropicVersion string     `json:"anthropic_version"`
	MaxTokens        int        `json:"max_tokens"`
	System           string     `json:"system,omitempty"`
	Messages         []wireTurn `json:"messages"`
	Tools            []wireTool `json:"tools,omitempty"`
}

// BedrockBody is Body for Bedrock: the same messages and tools, with
// "anthropic_version" in place of "model" and "stream".
func BedrockBody(_ string, msgs []agent.Message, defs []tools.Definition) ([]byte, error) {
	req := bedrockRequest{AnthropicVersion: BedrockVersion, MaxTokens: MaxTokens}
	req.System, req.Messages = toWire(msgs)
	for _, d := range defs {
		req.Tools = append(req.Tools, wireTool{Name: d.Function.Name, Description: d.Function.Description, InputSchema: d.Function.Parameters})
	}
	return json.Marshal(req)
}

// BedrockDecode is Decode for a body sent to Bedrock, with the checks
// Bedrock makes first: an anthropic_version, and no "model" or "stream" (the
// path says both; Bedrock refuses either key as extraneous).
func BedrockDecode(body []byte) (agent.DecodedRequest, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(body, &keys); err != nil {
		return agent.DecodedRequest{}, fmt.Errorf("body is not a Messages request: %w", err)
	}
	for _, k := range []string{"model", "stream"} {
		if _, ok := keys[k]; ok {
			return agent.DecodedRequest{}, fmt.Errorf("extraneous key [%s] is not permitted", k)
		}
	}
	if _, ok := keys["anthropic_version"]; !ok {
		return agent.DecodedRequest{}, fmt.Errorf("required key [anthropic_version] not found")
	}
	return Decode(body)
}

// BedrockWrite is Write as Bedrock's events: Anthropic's without the ping,
// which Bedrock does not pass on, and with Bedrock's invocation metrics on
// message_stop.
func BedrockWrite(model, conversation string, index int, t *agent.Turn) []string {
	var out []string
	for _, e := range Write(model, conversation, index, t) {
		switch {
		case strings.HasPrefix(e, "event: ping\n"):
			continue
		case strings.HasPrefix(e, "event: message_stop\n"):
			e = "event: message_stop\n" + `data: {"type":"message_stop","amazon-bedrock-invocationMetrics":` +
				fmt.Sprintf(`{"inputTokenCount":%d,"outputTokenCount":%d,"invocationLatency":0,"firstByteLatency":0}}`, 100*(index+1), 10+len(t.Text)/4) + "\n\n"
		}
		out = append(out, e)
	}
	return out
}
