package cassettes

import "embed"

// FS holds every cassette: "<name>.yaml", "<name>.en.yaml" and
// "quirks/<name>.<quirk>.yaml" in chat completions, and the same in the
// Responses format under "responses/".
//
//go:embed *.yaml quirks/*.yaml responses/*.yaml responses/quirks/*.yaml
var FS embed.FS
