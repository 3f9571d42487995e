// Package wire is the list of wire formats and the way to find one.
//
// A wire format is everything it takes to speak one provider API: the
// request body and headers, the stream merger, how a server reads a request
// and counts its turns, the error shapes. Each is one package below this one
// (wire/chat, wire/messages, wire/responses, wire/gemini) that builds one
// *agent.Format; those packages import the neutral core (package agent),
// never each other.
// Every layer above (the CLI's -api flags, the serve router, the scripted
// gateway, cassettes, quirks, conform) finds formats here and never names a
// path or an environment variable of its own:
//
//   - All lists every format, the default (chat completions) first; Names
//     lists their -api names;
//   - ByName finds the one an -api flag names;
//   - ForPath finds the one that serves a request path;
//   - Detect finds the one a raw stream is in, from its first event.
//
// Adding a format is one new package under wire/ and one line in All.
package wire
