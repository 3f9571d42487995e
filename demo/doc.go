// Package demo is the content of the offline demo: the sandbox repository
// the agent looks at and the conversations the scripted gateway
// (gateway.Gateway) plays about it.
//
// WriteSandbox writes the embedded sandbox (the files under sandbox/, plus a
// .git folder and GeneratedFile, ~38,000 characters, made in code): a small
// JavaScript project whose src/calc.js returns a / b without checking b, so
// test/calc.test.js is red, and node_modules/, dist/ and .git/ that the
// tools skip. It is the same on every machine, so the sizes fed back to the
// model are reproducible numbers.
//
// Scripts returns the base conversations in a locale (demo, demo_bad_args,
// demo_unknown_tool, parallel, read_generated); the base cassettes in
// package cassettes are recorded from them, and Prompt is the question they
// answer. EchoScripts (thought_signature, reasoning_echo) are conversations
// whose replies must be echoed (Gemini's thought signatures, DeepSeek's
// reasoning_content); the scenarios play them live against the gateway.
package demo
