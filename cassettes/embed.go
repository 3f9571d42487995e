package cassettes

import "embed"

// FS holds every cassette: "<name>.yaml", "<name>.en.yaml" and
// "quirks/<name>.<quirk>.yaml".
//
//go:embed *.yaml quirks/*.yaml
var FS embed.FS
