// Package harness holds no code: it is the home of the record/replay
// harness that tests the agent core offline, the way a network and real
// gateways deliver a model's streams. Each subsystem is a package of its
// own, with its manual in its doc.go:
//
//   - sse: SSE framing (Parse, Format, SplitEvents), no wire format.
//   - rechunk: re-delivering bodies in pieces, as a network does.
//   - cassette: go-vcr cassettes: record, replay, match, redact, scan.
//   - apierror: the error bodies of each wire format.
//   - gateway: the scripted gateway the cassettes are recorded from.
//   - quirk: the registry of broken stream shapes, per wire format.
//   - serve: the server behind agentvcr serve and agentvcr conform.
//   - record: the recording proxy behind agentvcr record.
//   - conform: conformance runs of any agent against the quirk catalog.
//
// Every package finds wire formats through package wire (the request's
// format by its path, a stream's by its first event) and takes what differs
// between formats from the *agent.Format: none names a path, a header or an
// event type of its own.
//
// Imports go one way: sse, rechunk and apierror import no harness package;
// cassette imports rechunk; gateway imports apierror; quirk imports
// sse, rechunk and cassette;
// serve imports cassette, quirk, rechunk, sse and apierror; record imports
// cassette, serve and apierror. None imports conform.
package harness
