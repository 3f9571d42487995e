package converse

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/bedrock"
	"github.com/agentvcr/agentvcr/wire/internal/turn"
)

// The methods of the Converse API for one model: the stream
// (ConverseStream) and the whole answer (Converse).
const (
	streamMethod = "converse-stream"
	wholeMethod  = "converse"
)

// MaxTokens is the inferenceConfig.maxTokens of every request.
const MaxTokens = 8192

// Format is Bedrock's Converse API: POST
// {base}/model/{modelId}/converse-stream with a Bedrock API key as the
// bearer (AWS_BEARER_TOKEN_BEDROCK; SigV4 is the other way in, which a
// gateway in front may make), Body, Merge and Check. The model is in the
// path; /converse is the same request answered with one JSON object.
var Format = &agent.Format{
	Name:           "converse",
	Title:          "Bedrock Converse",
	KeyEnv:         "AWS_BEARER_TOKEN_BEDROCK",
	BaseURLEnv:     "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
	ExampleBaseURL: "https://bedrock-runtime.us-east-1.amazonaws.com",
	Path:           func(model string) string { return bedrock.ModelPrefix + url.PathEscape(model) + "/" + streamMethod },
	WholePath:      func(model string) string { return bedrock.ModelPrefix + url.PathEscape(model) + "/" + wholeMethod },
	PathModel:      pathModel,
	APIPath: func(path string) (string, bool) {
		if _, _, ok := bedrock.CutPath(path, streamMethod, wholeMethod); !ok {
			return "", false
		}
		return bedrock.APIPath(path), true
	},
	Serves:        func(path string) bool { _, _, ok := bedrock.CutPath(path, streamMethod, wholeMethod); return ok },
	BasePath:      "",
	Header:        bedrock.Header,
	Key:           bedrock.BearerKey,
	Body:          Body,
	Merge:         func(r io.Reader) (*agent.Turn, error) { return merge(logical(r)) },
	Check:         Check,
	Decode:        Decode,
	Turn:          turn.ByRole,
	Write:         Write,
	Response:      Response,
	IsStreamEvent: isStreamEvent,
	ErrorEvent:    "event: error\n" + `data: {"type":"modelStreamErrorException","message":"agentvcr fault: the gateway failed mid-stream"}` + "\n\n",
	ErrorBody:     bedrock.ErrorBody,
	Framing:       framing,
}

func pathModel(path string) (string, bool) {
	model, stream, _ := bedrock.CutPath(path, streamMethod, wholeMethod)
	return model, stream
}

// logical reads a stream, framed or already in the logical form.
func logical(r io.Reader) io.Reader {
	f := agent.Format{Framing: framing}
	return f.LogicalStream(r)
}

// eventTypes are the ConverseStream event types.
var eventTypes = []string{"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"}

// isStreamEvent: an event of the logical form whose type is one of
// Converse's.
func isStreamEvent(typ string, data []byte) bool {
	for _, t := range eventTypes {
		if typ == t {
			return true
		}
	}
	if data != nil { // data: lines without event: lines
		var union map[string]json.RawMessage
		if json.Unmarshal(data, &union) == nil && len(union) == 1 {
			for k := range union {
				return strings.HasPrefix(k, "contentBlock") || k == "messageStart" || k == "messageStop"
			}
		}
	}
	return false
}
