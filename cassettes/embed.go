package cassettes

import "embed"

// FS holds every cassette: "<name>.yaml", "<name>.en.yaml",
// "quirks/<name>.<quirk>.yaml", and the Anthropic Messages recordings of the
// same scripts, "messages/<name>.yaml" and "messages/<name>.en.yaml", with
// the demo's benign Messages quirk variants "messages/quirks/demo.<quirk>.yaml",
// and the OpenAI Responses recordings, "responses/<name>.yaml" and
// "responses/quirks/<name>.<quirk>.yaml", and the Gemini recordings,
// "gemini/<name>.yaml" and "gemini/<name>.en.yaml", and the recordings of
// Anthropic's routes, "bedrock/<name>.yaml" (Bedrock's binary event
// stream, kept as !!binary) and "vertex-anthropic/<name>.yaml", and the
// Bedrock Converse recordings, "converse/<name>.yaml" (binary too).
//
//go:embed *.yaml quirks/*.yaml messages/*.yaml messages/quirks/*.yaml responses/*.yaml responses/quirks/*.yaml gemini/*.yaml bedrock/*.yaml vertex-anthropic/*.yaml converse/*.yaml
var FS embed.FS
