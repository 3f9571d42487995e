package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// request is the body of a generateContent request; field order is key
// order. The model is not in it: it is in the path.
type request struct {
	Contents          []content      `json:"contents"`
	SystemInstruction *content       `json:"systemInstruction,omitempty"`
	Tools             []toolSet      `json:"tools,omitempty"`
	GenerationConfig  map[string]any `json:"generationConfig,omitempty"`
}

// content is one turn: role "user" or "model" and its parts.
type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

// part is one part of a content: text (a thought when Thought is set), a
// functionCall or a functionResponse; ThoughtSignature rides on the part the
// model put it on and goes back on it.
type part struct {
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
}

type functionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`
	// PartialArgs and WillContinue are how a stream sends a call's
	// arguments in pieces (see partialArg); requests never carry them.
	PartialArgs  []partialArg `json:"partialArgs,omitempty"`
	WillContinue bool         `json:"willContinue,omitempty"`
}

type functionResponse struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Response is what the tool returned; Body sends {"output": text}, as
	// Gemini CLI does.
	Response json.RawMessage `json:"response"`
}

type toolSet struct {
	FunctionDeclarations []declaration `json:"functionDeclarations"`
}

type declaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

// Body returns the exact bytes of a Gemini request for the neutral messages:
// {"contents":[..],"systemInstruction":{"parts":[..]},"tools":[{"functionDeclarations":[..]}]}.
// System messages become systemInstruction's text parts; a user message a
// "user" content with one text part; an assistant message a "model" content
// with its text part, then one functionCall part per call (its id, name and
// args, and the call's thought signature, see Signature); the tool messages
// after it one "user" content of functionResponse parts, in order, each
// named after the call it answers. A signature the model put on a text part
// (agent.ThinkingRedacted) goes back on the model turn's first part. model
// is not used: it is in the path. The same input always gives the same
// bytes; "tools" is left out when there are none.
func Body(_ string, msgs []agent.Message, defs []tools.Definition) ([]byte, error) {
	req, err := toWire(msgs)
	if err != nil {
		return nil, err
	}
	if len(defs) > 0 {
		set := toolSet{FunctionDeclarations: []declaration{}}
		for _, d := range defs {
			set.FunctionDeclarations = append(set.FunctionDeclarations, declaration{Name: d.Function.Name, Description: d.Function.Description, ParametersJSONSchema: d.Function.Parameters})
		}
		req.Tools = []toolSet{set}
	}
	return marshal(req)
}

// toWire converts the neutral messages to a request's contents and system
// instruction.
func toWire(msgs []agent.Message) (request, error) {
	req := request{Contents: []content{}}
	names := map[string]string{} // call id -> name, for the responses
	for i := 0; i < len(msgs); i++ {
		m := &msgs[i]
		switch m.Role {
		case agent.RoleSystem:
			if req.SystemInstruction == nil {
				req.SystemInstruction = &content{}
			}
			req.SystemInstruction.Parts = append(req.SystemInstruction.Parts, textPart(m.Content))
		case agent.RoleUser:
			req.Contents = append(req.Contents, content{Role: "user", Parts: []part{textPart(m.Content)}})
		case agent.RoleAssistant:
			req.Contents = append(req.Contents, modelContent(m, names))
		case agent.RoleTool:
			c := content{Role: "user"}
			for ; i < len(msgs) && msgs[i].Role == agent.RoleTool; i++ {
				t := &msgs[i]
				c.Parts = append(c.Parts, part{FunctionResponse: &functionResponse{ID: t.ToolCallID, Name: names[t.ToolCallID], Response: outputObject(t.Content)}})
			}
			i--
			req.Contents = append(req.Contents, c)
		default:
			return req, fmt.Errorf("message %d: role %q has no Gemini content", i, m.Role)
		}
	}
	return req, nil
}

// modelContent is an assistant message as a "model" content.
func modelContent(m *agent.Message, names map[string]string) content {
	c := content{Role: "model"}
	if m.Content != "" || len(m.ToolCalls) == 0 {
		c.Parts = append(c.Parts, textPart(m.Content))
	}
	for _, call := range m.ToolCalls {
		names[call.ID] = call.Function.Name
		c.Parts = append(c.Parts, part{
			FunctionCall:     &functionCall{ID: call.ID, Name: call.Function.Name, Args: argsObject(call.Function.Arguments)},
			ThoughtSignature: Signature(call),
		})
	}
	for _, th := range m.Thinking {
		if th.Type == agent.ThinkingRedacted && th.Data != "" && c.Parts[0].ThoughtSignature == "" {
			c.Parts[0].ThoughtSignature = th.Data
		}
	}
	return c
}

func textPart(s string) part { return part{Text: &s} }

// argsObject is a call's arguments as the args member: the JSON text when
// it is valid JSON, an empty object otherwise (Gemini takes an object only).
func argsObject(args string) json.RawMessage {
	if args == "" || !json.Valid([]byte(args)) {
		return json.RawMessage("{}")
	}
	return json.RawMessage(args)
}

// marshal is json.Marshal without HTML escaping ("<" stays "<", as Google
// sends and takes it) and without the trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// outputObject is a tool's result as a functionResponse's response:
// {"output": text}.
func outputObject(text string) json.RawMessage {
	b, _ := marshal(struct {
		Output string `json:"output"`
	}{text})
	return b
}
