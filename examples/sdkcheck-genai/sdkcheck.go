// Package sdkcheck reads a Gemini stream with Google's Go SDK
// (google.golang.org/genai) the way its users do, Models.GenerateContentStream
// over a server on loopback that answers with the stream, and gathers the
// first candidate's parts, so that its answer can be set beside agentvcr's
// merger on every fixture of wire/gemini/testdata/streams.
package sdkcheck

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"

	"google.golang.org/genai"
)

// Call is one functionCall part: its id ("" when the stream had none), name,
// args as JSON (keys sorted: the SDK holds them in a map) and its
// thoughtSignature as the stream had it (base64; the SDK decodes it).
type Call struct {
	ID        string
	Name      string
	Arguments string
	Signature string
}

// Answer is what genai gives for one stream: the first candidate's text
// parts joined, its thought parts joined, its calls, the first non-empty
// finishReason (or promptFeedback.blockReason), the signatures of its other parts, and the first error of
// the iteration.
type Answer struct {
	Text         string
	Thoughts     string
	Calls        []Call
	FinishReason string
	Signatures   []string
	Err          error
}

// Read serves body as the answer to one streamGenerateContent request on
// 127.0.0.1 and reads it through a genai.Client of the Gemini API backend.
func Read(body []byte) Answer {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	defer srv.Close()
	var a Answer
	ctx := context.Background()
	client, err := genai.NewClient(ctx, &genai.ClientConfig{APIKey: "sdkcheck", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL, APIVersion: "v1beta"}, HTTPClient: srv.Client()})
	if err != nil {
		a.Err = err
		return a
	}
	for resp, err := range client.Models.GenerateContentStream(ctx, "gemini-2.5-flash", genai.Text("hi"), nil) {
		if err != nil {
			a.Err = err
			break
		}
		a.add(resp)
	}
	return a
}

// add gathers one response's first candidate (index 0), and a blocked
// prompt's reason as the finish reason.
func (a *Answer) add(resp *genai.GenerateContentResponse) {
	if f := resp.PromptFeedback; f != nil && f.BlockReason != "" && a.FinishReason == "" {
		a.FinishReason = string(f.BlockReason)
	}
	for _, c := range resp.Candidates {
		if c.Index != 0 {
			continue
		}
		if c.Content != nil {
			for _, p := range c.Content.Parts {
				sig := ""
				if len(p.ThoughtSignature) > 0 {
					sig = base64.StdEncoding.EncodeToString(p.ThoughtSignature)
				}
				switch {
				case p.FunctionCall != nil:
					args, _ := json.Marshal(p.FunctionCall.Args)
					if p.FunctionCall.Args == nil {
						args = []byte("{}")
					}
					a.Calls = append(a.Calls, Call{ID: p.FunctionCall.ID, Name: p.FunctionCall.Name, Arguments: string(args), Signature: sig})
					continue
				case p.Thought:
					a.Thoughts += p.Text
				default:
					a.Text += p.Text
				}
				if sig != "" {
					a.Signatures = append(a.Signatures, sig)
				}
			}
		}
		if a.FinishReason == "" {
			a.FinishReason = string(c.FinishReason)
		}
	}
}
