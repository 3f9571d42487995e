package cassettes

import "embed"

// FS holds every cassette: "<name>.yaml", "<name>.en.yaml",
// "quirks/<name>.<quirk>.yaml", and the Anthropic Messages recordings of the
// same scripts, "messages/<name>.yaml" and "messages/<name>.en.yaml".
//
//go:embed *.yaml quirks/*.yaml messages/*.yaml
var FS embed.FS
