// Command gencassettes writes the project's cassettes: it records the base
// cassettes from the scripted gateway (gateway.Gateway) through the same
// path a user records a live gateway with (`agentvcr run -base-url ...
// -record PATH`), then derives the quirk cassettes from them with the
// harness's transforms. It runs from `go generate ./cassettes`.
//
// The gateway listens on loopback; the client is told the fixed base URL
// http://scripted-gateway.agentvcr.test/v1 and its connections are dialled
// to the loopback port, so the recorded URL does not change from run to run.
package main
