// Package cassettes holds the project's recorded conversations as go-vcr
// (v2.1.0) YAML files and exposes them as an fs.FS.
//
// The base cassettes (*.yaml, *.en.yaml for the English locale) are recorded
// from the project's scripted gateway on loopback (gateway.Gateway), through
// the same recording path a user runs against a live gateway:
// `agentvcr run -base-url URL -model NAME -record PATH`. They are not
// recordings of a live model. messages/*.yaml are the same scripts recorded
// in the Anthropic Messages format (`agentvcr run -api messages ...`). The derived cassettes (quirks/*.yaml) are the
// base ones rewritten by the harness's quirk transforms into the broken
// shapes real gateways send. responses/ holds the same conversations
// recorded in the OpenAI Responses format (run -api responses, against the
// gateway's /v1/responses), and responses/quirks/ their variants.
//
// Both are generated: `go generate ./cassettes` re-records the base cassettes
// and derives the quirk ones; a test fails when the checked-in files differ
// from what the generator writes.
package cassettes

//go:generate go run ../internal/gencassettes
