// Package conform runs the quirk catalog against any agent, in any
// language, and checks the request the agent sends back after each broken
// stream shape.
//
// # How a run goes (run.go, process.go)
//
// Run starts one serve.Server on loopback and runs the agent's command
// once per case, with OPENAI_BASE_URL set to the case's scenario URL
// (http://127.0.0.1:PORT/s/<case>/v1), ANTHROPIC_BASE_URL to the same URL
// without /v1, OPENAI_API_KEY and ANTHROPIC_API_KEY to DummyKey and
// AGENTVCR_CASE (CaseVariable) to the case's id. A request on another
// format's path (Format.Path) fails with ErrWrongPath, naming the -api
// that speaks it; on the first case it ends the run (Run returns it). Each
// run is bounded by Options.Timeout, counted from the agent's start and
// again from each request of its conversation (deadline.go): an agent still
// retrying is not hung (opencode retries a stream that failed midway for
// about 77 s), so each request moves the deadline to Timeout after it, up
// to Options.RetryTimeout after the start (-retry-timeout,
// DefaultRetryTimeout, 5 min); a case that ran past Timeout so says how
// many requests came and how long it ran, and one killed at RetryTimeout
// says so. A stall case's deadline does not move: Options.StallTimeout
// (-stall-timeout, DefaultStallTimeout: real agents give up on a silent
// stream after 240 to 300 s). At the deadline the agent's whole process
// group gets SIGTERM, and SIGKILL once its leader exited or after two
// seconds, so a wrapper's trap can clean up. HEAD and GET requests on a
// path no format serves (Claude Code's HEAD /api/hello) are answered 200
// and not counted; other requests there are answered 404 and kept for -out
// (Result.Unrouted). The clean case runs first and alone, the others
// Options.Parallel at a time, those that wait longest first (schedule.go:
// the stall case, the other faults, the broken streams), the results in
// the catalog's order; when it fails, the other cases' failures say so
// first (follow.go). Options.Progress is told as each case starts and
// finishes (progress.go: LineProgress, a line per finished case;
// TerminalProgress, a status line redrawn in place).
//
// # An agent in Go (agentfunc.go)
//
// Options.Agent, an AgentFunc, runs instead of Options.Command: a Go
// function called in conform's process once per case, with the case's
// variables above as its env (nothing else: no scrubbing applies), two
// writers for what a command would print, and a context that ends when the
// case is decided or at its timeout; it must return then (conform waits
// two seconds, then reports the case as killed and leaves it behind). A
// panic is exit code 2 with the value and stack on stderr. Package
// conformtest runs it from go test.
//
// # What an agent gets, and what it leaves (credentials.go, mark.go, subreaper_linux.go, leftovers_linux.go, leftbehind.go, deathsig_linux.go, caps.go)
//
// The agent starts from Command.Env (nil: conform's own environment) less
// every credential (ScrubEnv, IsCredential): each variable of a model
// provider (OPENAI_*, ANTHROPIC_*, AZURE_OPENAI_*, OPENROUTER_*, GEMINI_*,
// ...) and each whose name has a credential word (*_API_KEY, *_TOKEN,
// *_AUTH_TOKEN, *_SECRET*, *_PASSWORD, *_CREDENTIALS, PAT), but those
// Command.PassEnv names (-pass-env); then the dummies above are set. It
// also gets AGENTVCR_CONFORM_MARK, a random value per case that whatever
// it starts inherits. The agent runs in a session of its own (Unix; no
// controlling terminal). On Linux conform makes its process a child
// subreaper, so whatever an agent starts stays in conform's tree however
// it detaches (a new session, another mark, a rewritten command line and
// environment), and reaps those orphans as they exit (waiting for each by
// its pid, never for any child, so os/exec keeps its agents' statuses).
// When a case ends it kills every process carrying the case's mark, every
// process of the agent's session or group left in conform's tree, every
// child of conform outside conform's session that is no running agent and
// that no running case claims (by its mark, session or group), and their
// descendants, and reaps them. The case's details name what was still
// running ("it left 1 process behind: sleep"; what the -timeout kill of
// the agent's group ended is not named), and it is at least a WARNING. An
// orphan no mark ties to one case was started by the ending case or by
// one running at its end (each that ended before killed the orphans
// there were): with -p 1 it is the ending case's; with more it is named
// in every case running then ("it or a case running alongside it (ids)
// left ..."). A program running conform keeps the children it starts in
// its own session; one it starts in a session of its own, or one that
// such a child leaves, is taken for a leftover. On other systems the
// process group alone is killed at -timeout, and nothing is named. Each agent gets
// SIGKILL when conform dies (Pdeathsig, with the forking goroutine locked
// to its thread until the agent was waited for, since the signal follows
// the thread); the processes the agent started do not, until their case's
// sweep. A case keeps at most 100 requests and 32 MiB of them: the first
// request over a cap is answered 413, the agent is killed at once, and the
// case fails naming the cap (ErrCaseCap).
//
// # Side requests (side.go) and non-streamed requests (fallback.go)
//
// The conversation conform judges is the requests whose tool names are
// those of the first request that offers tools. A request with no tools or
// another tool set (opencode's title request, Qwen Code's memory agent,
// Gemini CLI's routing classifier) is a side request: answered with a short
// reply in its format, streamed when it asks for a stream, JSON filling the
// required members of the schema it asks for (chat response_format,
// Responses text.format, Messages output_format, Gemini generationConfig);
// kept (Result.Side, side-N.json under -out), never judged, never the probe.
// An agent that sends only side requests in the clean case ends the run
// with ErrNoReadOnlyTool. A request of the conversation that asks for no
// stream after a streamed one (Claude Code's fallback) is answered with the
// format's non-streamed answer (agent.Format's Response) and judged like
// any other; on a benign case that is a WARNING (the agent could not read
// the stream), after a broken stream or a fault a fair retry. A first
// request without a stream followed by streamed ones fails the case:
// conform checks streams. An agent that asks for no stream on every
// request (streamless.go) gets one line in the first case, SKIPPED, and
// every case that serves a stream is SKIPPED for that reason without
// running it; the 429 and 500 faults still run and are judged.
//
// # The probe (probe.go, conversation.go)
//
// From the conversation's first request conform reads the tools the agent offers and
// builds one model turn: a short text, then two calls in parallel. The tools
// are those named by -call (CallSpec), else two picked by name and schema
// (pick.go): a word of the name says the tool reads (read, view, cat,
// list, ls, glob, find, grep, search), none says it acts (write, run, web,
// agent, tool...), and the schema requires a pattern or a path; the first
// two in the agent's order, one taking a pattern swapped in when neither
// does; with none, tools that read by name and take neither; a tool whose
// name says it reads media (view_image, ...: mediaprobe.go) only when no
// other qualifies, and then the first case's details say the probe
// exercises no tool that reads text and name the -call of the agent's
// shell tool with a read-only command that would (Codex 0.171: -call
// 'exec_command={"cmd":"cat README.md"}'; conform never calls a shell
// unless told); one such tool is called twice; none is ErrNoReadOnlyTool,
// which names the tools offered. Arguments not given are generated from the tool's JSON Schema
// (GenerateArguments): required members (a schema that requires none still
// gets one, vacuous.go: an optional member, a path that exists first, or
// with no member declared a "probe" member unless additionalProperties is
// false); a path parameter, at the top or
// nested (files[].path, paths[]), gets a file of the folder the agent runs
// in or the folder itself (folder.go), absolute when its description says
// so; other strings, patterns first, carry a
// quote, a backslash and CJK text. The request that carries one assistant
// message (or more) is answered with a short conclusion; an agent that
// asks for it again and again, or exits 0 without printing it where the
// first case prints it, did not take it (conclusion.go). An agent that
// offers a tool it ends its run with (a name word submit, finish,
// completion or complete, none todo, plan or step: Cline's attempt_completion
// and submit_and_exit) gets a conclusion that also calls that tool, with
// arguments from its schema (GenerateArguments), and the request after
// it gets the conclusion's text alone; each of the two may be asked for
// once.
//
// # Cases (case.go, broken.go, limit.go)
//
// Each case serves the clean turn through one transform. The chat
// catalog (Cases) has every quirk of quirk.All for chat completions or any
// stream (applied to every turn; the other formats' catalogs are below),
// the three broken streams midstream_error, truncated and finish_length
// (the tool turn breaks inside its second call, on every attempt;
// finish_length ends it there with finish_reason "length", as the output
// token limit does), and the faults (429 with Retry-After, 500, stall,
// reset) on the case's first request only, reported as their own tier.
// The echo tier (echo.go) serves the clean turn with what a provider wants
// sent back: a thought signature on every call (echo_signature, Gemini) or
// reasoning_content before the turn (echo_reasoning, DeepSeek).
//
// Chat's catalog also lists, after its single quirks, the compositions
// real gateways are known to send (compositions.go: comments+no_done,
// comments+args_one_rune, args_split_escapes+crlf), each a case with where
// it was seen, judged as a composition named to SelectCases is.
//
// SelectCases also takes a composition of quirk cases that the catalog
// does not list, "ids_dropped+args_one_rune" (composed.go): the composed
// quirk (quirk.Lookup) on the turns its parts' cases break, expecting the
// clean turn when every part's case does, else what its one broken part's
// case expects (quirk.Lookup refuses two broken parts), with that part's
// Delivered. A part that is no quirk case of the format is refused.
//
// # Case files (casefile.go)
//
// ReadCaseFiles reads a user's own cases, kept in their repository beside
// the agent: each is a txtar file (the form of the scenarios, reviewed as
// text in a pull request) whose comment holds one field a line, id, api,
// doc, seen and quirks ("ids_dropped + args_one_rune + crlf"). Its case is
// the catalog quirk it names, or the composition of those it names, under
// its own id, doc and seen, with File set; its expectation is derived from
// the quirks as a composition's is. Instead of quirks a file may hold a
// captured turn, a section -- turn.sse -- with the stream a gateway sent
// for the turn with the calls: conform serves it as it is (captured.go),
// then the probe's conclusion, and what it demands is what our merger
// makes of it: the calls it merges re-sent and answered (each must name a
// tool the agent offers), or, when it refuses the stream, nothing of the
// turn sent on and no exit 0. A captured case is not compared with the
// clean run (its calls are not the probe's). Two more fields, expect
// (benign or broken) and reason, always together, override the derived
// expectation (CaseFile.Expected), the reason appended to the doc; benign
// is refused where our merger refuses the turn or its arguments are not
// JSON, as there are then no merged calls to demand. The files of another
// format come back apart for the caller to name. A file that does not parse,
// misses or repeats a field, names an unknown format or quirk, composes
// quirks that cannot compose, takes a catalog case's id or another
// file's, holds a stream of another format than it says or one with no
// call, or holds a credential (cassette.KeyShapesIn) is ErrCaseFile,
// naming the file (and the line); Check.File names a case file's case in
// the JSON report, and report merge reads it.
//
// # Checks (check.go)
//
// Checks read requests through a Format (one per wire format, Formats), so
// a wire format plugs in with a reader of its own. On a benign quirk the
// first assistant message of every follow-up request must re-send the
// merged calls (names, arguments equal as JSON, in any order: each API
// pairs calls and results by id, order.go; ids equal to the
// stream's unless the stream dropped them), with non-empty unique ids that
// stay the same in later requests; every call must be answered by exactly
// one tool message before any other message; its text must be the merged
// text (dropped, "[object Object]", null or the parts dumped as JSON fail:
// garble.go) and the agent must exit 0 without printing "[object Object]".
// The first request that re-sends the tool turn wrong decides a benign
// case: it is answered 400 and the agent stopped there (decided.go), so a
// loop is never fed; several_choices' decoy call is in the tool turn only.
// Every benign case is also judged against the clean case's run
// (reference.go, normalize.go): each call's tool result must be the one
// the clean run got for it (results.go), and the output must keep every
// line the clean run printed, with no text of the quirk's own (a marker
// the case declares, the preamble printed again, parts as JSON: garbage.go;
// another difference is a WARNING).
// After a broken stream no request may carry an assistant or tool message
// the first request did not (a retry is fine), and the agent must not exit
// 0. Recovery (recovery.go), after a broken stream or a stall or reset:
// sending anything cut or corrupt (a call the stream did not complete, sent
// or run as if whole, text it did not deliver) is a FAILURE; keeping only
// the calls the stream delivered whole (Case.Delivered) is a WARNING that
// says so and whether the agent ran them from a stream that then failed;
// sending the cut call back refused, not run and with the history saying
// why, is a WARNING (refusal.go); resuming from the delivered text with no
// call is a WARNING; going on with the whole turn read from a non-streamed
// retry is a SUCCESS.
// After a fault the agent may give up or retry and finish, but not exit 0
// without finishing, send on what the fault cut, or hang (a stall it does
// not give up on within -stall-timeout fails; one it gives up on says after
// how long: "gave up on the stalled stream after 241s"). A 429 it does not
// wait out is a WARNING. Failures quote the agent's stderr from its first
// line that says error, then its last lines (excerpt.go). On an echo case every request carrying the tool turn must also
// send back each call's extra_content with its signature, or that turn's
// reasoning_content; conform's server does not refuse a request without
// it (the providers answer 400), the case fails.
//
// # Recorded mode (recorded.go)
//
// With Options.Recording (ReadRecording: a go-vcr v2.1.0 cassette recorded
// from the agent itself) the cases are RecordedCases: "replay" serves the
// recorded replies by turn (reply N answers the request carrying N
// assistant messages) and its requests must equal the recorded ones; then
// every benign quirk, applied to every reply, where the requests must equal
// the replay's. Requests compare as canonical JSON with each tool call's id
// replaced by the call's position in the conversation (a tool message's
// tool_call_id by the position of the call it answers; in Messages the
// tool_use and tool_result ids, in Responses the call_ids, with the item
// ids the stream chose left out: Format.renumber), and Ignore paths
// (dotted, * for any key or index) left out. The quirks are the format's
// own. A quirk that changes no reply is SKIPPED. So is, as vacuous, a
// quirk of the argument text alone (quirk.Quirk.OnArguments: args_one_rune,
// args_cumulative, ...) when every probe call carries "{}": it has nothing
// to cut, and an agent that drops argument pieces would pass by accident;
// its details name the -call that would run it, and the totals line and
// the JSON report ("vacuous": true) count them.
//
// # Wire formats (request*.go, messages.go, responses.go, gemini.go, side.go)
//
// A Format is a wire format of package wire (its *agent.Format: name,
// paths, environment variables, the stream writer and the agent core's
// merger, from which Format.build makes the probe's turns) with what
// conform adds: a Read that reads its requests into Request (tools,
// messages, calls, call ids; the checks see nothing else), its catalog, its
// cut point and its id renumbering for recorded mode; the runner, checks
// and reports stay. Formats lists them in wire.All's order, and FormatByName
// finds one by its -api name. Every case's environment points every
// format's variables at the case's URL (wire.Env).
// Chat completions (-api chat) runs Cases.
// Anthropic Messages (-api messages) reads tools as name and input_schema,
// an assistant message's tool_use blocks as its calls (input as JSON text),
// and a user message as its blocks in order: a tool message per
// tool_result, a user message per run of text, so text before the
// tool_result blocks fails like a chat message before the tool messages,
// and an assistant message with text after a tool_use block fails
// (Message.TextAfterCalls).
// It runs MessagesCases: the
// clean turn, every benign quirk of quirk.OfAPI, its two
// broken streams (messages_overloaded_midstream, messages_cut_before_stop:
// ExpectBroken, tool turn only), messages_echo_thinking (a thinking block
// with its signature first in every turn; the tool-call turn must send it
// back unchanged as its first block) and the faults, whose stall and reset
// cut inside the second tool_use block. Its streams are served as
// text/event-stream.
// OpenAI Responses (-api responses) reads tools of type function (name and
// parameters), instructions as the system message, and the input items in
// order: a run of function_call items, with the assistant message item
// right before them, is one assistant message whose calls carry the
// call_id; a function_call_output is a tool message answering its call_id;
// reasoning and built-in tool items are left out. It runs ResponsesCases:
// the clean turn,
// every Responses quirk of quirk.All (responses_bad_args as
// ExpectBadArgs; truncated, failed, incomplete and error_event as
// ExpectBroken, tool turn only; second_response as ExpectFirstOrBroken,
// tool turn only: an agent may stop reading at the first
// response.completed and go on with that turn, or refuse the stream, but
// must send nothing of the second response),
// responses_echo_reasoning (a reasoning item first in every turn; calls
// sent back with their item ids need it before them, and a reasoning item
// sent needs an assistant item after it) and the faults, whose stall and
// reset cut inside the second function_call item.
// Gemini (-api gemini) reads a request through the format's own server
// view (gemini.Decode: a functionCall not answered in order by the next
// content's functionResponse fails the request with its reason), tools
// from functionDeclarations (parametersJsonSchema, else parameters), the
// model and the stream flag from the path, and a part's thoughtSignature
// into Call.Extra. A request on :generateContent (not streamed: Gemini
// CLI's routing classifier) is a side request: answerSide gives it a short
// JSON object made from its response schema, and it is neither judged nor
// counted. GeminiCases: the clean turn, every quirk of quirk.OfAPI (the
// broken ones ExpectBroken, tool turn only), gemini_echo_signature (a
// thoughtSignature on every functionCall part, to be sent back on that
// part) and the faults, whose stall and reset stop right before the event
// with the calls (they come whole).
//
// # The catalog as data (catalog.go)
//
// CatalogFiles writes the quirk tier of every format as plain files (each
// case's stream and expected merge, and cases.json), built on the probe's
// turn for AgentvcrTools: chat completions at the root, the other formats
// in messages/, responses/ and gemini/; ../../catalog holds them, generated by go
// generate.
//
// # Reports (report_*.go, baseline.go, out.go, visible.go)
//
// WriteTable, WriteJSON (an array of checks shaped like MCP's conformance
// checks) and WriteJUnit report the Results; the table shows what came
// from the agent escaped (control characters as \x1b, \x07, \u009b, as
// the CLI's cards). WriteOut keeps -out: a fresh folder per case
// (stdout, stderr, request-N.json, and the Answers served, answer-N.sse,
// or .json for a whole turn, with answer-N.clean.sse where a transform
// changed the turn) and DroppedFile (env-dropped.txt, the
// names ScrubEnv dropped), under an os.Root, refusing any symbolic link
// with ErrOutLink. A Baseline lists expected
// failures: Judge returns the failures it does not list and the entries
// whose case now passes (stale), both of which fail a run.
//
// # Shards and merged reports (shard.go, merge.go, report_md.go)
//
// A Shard (ParseShard, "I/N") is a stable slice of a run's cases for a CI
// matrix: round robin in the list's order, the probe in every shard and
// reported by shard 1 only (Shard.Cases, Shard.Reported). WriteRunJSON
// names the run (RunInfo: api, agent, cassette, shard; AgentName writes
// the agent's command line on one line) in each check; ReadReport reads
// one back, refusing (ErrBadReport, report_check.go) an empty array, data
// after it and any field out of its range (a format wire does not know, a
// case its catalog does not have, a status of no verdict, a negative
// count, a shard that is not I/N, a control character in a one-line text),
// and MergeReports joins one run's shards into
// Results in catalog order, refusing (ErrBadMerge) reports of another run,
// a case twice or a shard missing, and dropping the shards' baseline marks
// so that one Baseline.Judge decides the whole run. WriteMarkdown writes
// the table a CI job's summary shows: case, verdict, first difference.
//
// # The HTML page (report_html.go, report_html.tmpl, report_html.js, out_read.go)
//
// WriteHTML writes Results as one page that loads nothing: a summary per
// verdict and tier, filters (the page's fragment sets them), and per case
// the details, the diff with its lines marked, the answer the transform
// changed against the clean turn (a line diff: the longest common run of
// lines kept, the others marked dropped or added), the requests one
// message a block and the ends of stdout and stderr, terminal sequences
// left out. html/template escapes every text, and the page's
// Content-Security-Policy allows its one inline script by its SHA-256.
// ReadOut fills Results read from a JSON report with what -out kept of
// the same run, so that the page rebuilt from both is the run's own.
package conform
