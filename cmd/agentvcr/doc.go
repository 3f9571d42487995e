// Command agentvcr runs the agent core, its tools and its record/replay
// harness from the command line:
//
//	agentvcr run [flags] [PROMPT]   the agent loop: offline demo, replay, live, record
//	agentvcr merge [-format F] [FILE] merge a raw SSE stream (chat, responses) into one turn
//	agentvcr tool NAME [ARGS_JSON]  run one tool through the loop's entry
//	agentvcr selftest               the lesson's seven checks
//	agentvcr conform -- COMMAND     run the quirk catalog against any agent
//
// The commands live in internal/cli, so that the scenarios drive exactly
// what this binary runs.
package main
