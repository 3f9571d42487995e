package agent

// DecodedRequest is what a server reads from a request body: the model, the
// stream flag and the conversation as neutral messages.
type DecodedRequest struct {
	Model    string
	Stream   bool
	Messages []Message
}
