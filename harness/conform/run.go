package conform

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
)

// DummyKey is the key every case gets in every format's key variable.
const DummyKey = "sk-agentvcr-conform-dummy"

// ErrWrongPath marks a request posted to another format's path than the
// run's (-api): a chat agent run with -api messages, or the reverse.
var ErrWrongPath = errors.New("request on another format's path")

// CaseVariable names the environment variable that tells the agent which
// case it runs.
const CaseVariable = "AGENTVCR_CASE"

// Options configure a conformance run.
type Options struct {
	// Command is the agent, started once per case (process.go).
	Command Command
	// Agent, when set, is run instead of Command: an agent written in Go,
	// called in conform's process once per case (AgentFunc).
	Agent AgentFunc
	// Folder is the folder the agent works in, where the probe's path
	// arguments point (folder.go): default Command.Dir, else conform's
	// own folder (an Agent runs in conform's process).
	Folder string
	// Cases to run, in report order (default Cases()).
	Cases []Case
	// Calls are the -call flags: the tools the probe calls.
	Calls []CallSpec
	// Parallel is how many cases run at once (default 4).
	Parallel int
	// Progress, when set, is told as each case starts and finishes
	// (LineProgress, TerminalProgress).
	Progress Progress
	// Timeout bounds each case's run of the agent (default 30 s), counted
	// from its start and again from each request of its conversation: an
	// agent still sending requests (retrying with backoff) is not hung
	// (deadline.go).
	Timeout time.Duration
	// RetryTimeout is as far as requests move a case's deadline: the
	// longest a case runs (default DefaultRetryTimeout, never below
	// Timeout). A stall case's limit does not move.
	RetryTimeout time.Duration
	// StallTimeout bounds the run of a stall case instead (default
	// DefaultStallTimeout, never below Timeout): real agents give up on a
	// silent stream after 240 to 300 s (stall.go names them).
	StallTimeout time.Duration
	// Format is the wire format (default chat completions).
	Format Format
	// Recording, when set, is recorded mode: the cases (RecordedCases)
	// replay it instead of the probe's turn.
	Recording *Recording
	// limits bound what a case keeps (zero: defaultLimits); tests set
	// small ones.
	limits caseLimits
	// retryAfter is fault_429's Retry-After (zero: defaultRetryAfter);
	// tests set a shorter one, sent in decimal seconds.
	retryAfter time.Duration
	// funcGrace is how long an Agent has to return once its context is
	// done (zero: defaultFuncGrace); tests set a shorter one.
	funcGrace time.Duration
}

// Run runs the agent once per case against one loopback server, each case
// on its own scenario URL, and judges what it sent. The first case (clean,
// or replay in recorded mode) runs first and alone: when the probe cannot
// pick tools from the agent's first request (ErrNoReadOnlyTool,
// ErrUnknownCall), or the agent posts it to another format's path
// (ErrWrongPath, naming the -api that speaks it), Run returns that error
// and runs nothing else; in recorded mode the replay's requests are what
// the other cases must send.
func Run(ctx context.Context, opt Options) ([]Result, error) {
	if opt.Format.Read == nil {
		opt.Format = chatFormat
	}
	if opt.Cases == nil {
		opt.Cases = opt.Format.Cases()
		if opt.Recording != nil {
			opt.Cases = RecordedCases(opt.Format)
		}
	}
	if opt.Parallel < 1 {
		opt.Parallel = 4
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 30 * time.Second
	}
	if opt.StallTimeout <= 0 {
		opt.StallTimeout = DefaultStallTimeout
	}
	opt.StallTimeout = max(opt.StallTimeout, opt.Timeout)
	if opt.RetryTimeout <= 0 {
		opt.RetryTimeout = DefaultRetryTimeout
	}
	opt.RetryTimeout = max(opt.RetryTimeout, opt.Timeout)
	if opt.limits == (caseLimits{}) {
		opt.limits = defaultLimits
	}
	if opt.retryAfter <= 0 {
		opt.retryAfter = defaultRetryAfter
	}
	if opt.funcGrace <= 0 {
		opt.funcGrace = defaultFuncGrace
	}
	dir := cmp.Or(opt.Folder, opt.Command.Dir) // where the probe's paths are
	if dir == "" {
		dir, _ = os.Getwd()
	}
	states := map[string]*caseState{}
	for _, c := range opt.Cases {
		st := &caseState{c: c, format: opt.Format, calls: opt.Calls, dir: dir, limits: opt.limits, retryAfter: opt.retryAfter, recorded: opt.Recording != nil}
		if st.recorded {
			st.conv = recordedConversation(opt.Recording, opt.Format)
		}
		states[c.ID] = st
	}
	var reference *caseState // recorded mode: the replay, once it ran
	var clean *cleanRun      // probe mode: the clean case's run, once it passed
	log := &serverLog{}
	srv := &serve.Server{Log: log, Route: func(name string) (*serve.Route, error) {
		st, ok := states[name]
		if !ok {
			return nil, fmt.Errorf("conform serves no case %q: %w", name, serve.ErrUnknownCase)
		}
		return &serve.Route{Answer: st.reply, Models: []string{"conform"}, Preflight: true, Unrouted: st.unroutedRequest, WebSocket: st.upgrade, Fault: st.routeFault(),
			Rechunk: st.c.Rechunk, Coalesce: st.c.Coalesce}, nil
	}}
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer stop()

	results := make([]Result, len(opt.Cases))
	noStream := "" // the first case, when its agent asks for no stream (streamless.go)
	noWS := ""     // the first case, when its agent opened no WebSocket (websocket.go)
	progress := &progressOf{p: opt.Progress, total: len(opt.Cases)}
	runOne := func(i int) {
		st := states[opt.Cases[i].ID]
		progress.started(st.c)
		defer func() { progress.finished(results[i]) }()
		if noWS != "" && st.c.WebSocket != "" {
			results[i] = noWebSocket(st.c, noWS)
			return
		}
		if noStream != "" {
			if needsStream(st.c) {
				results[i] = notStreamed(st.c, noStream)
				return
			}
			st.unstreamed = true
		}
		ref := clean
		if st.c.Captured != nil {
			ref = nil // a captured turn's calls are not the probe's: the clean run has nothing to compare them with
		}
		results[i] = st.run(ctx, opt, serve.ScenarioURL(base, st.c.ID), reference, ref)
		if len(results[i].Requests) == 0 && results[i].Status == Failure {
			results[i].Details += log.about(st.c.ID)
		}
	}
	rest := make([]int, 0, len(opt.Cases))
	for i, c := range opt.Cases {
		if i > 0 || !isFirstCase(c.ID) {
			rest = append(rest, i)
			continue
		}
		states[c.ID].first = true
		runOne(i)
		if opt.Recording == nil && results[i].Status != Failure {
			clean = states[c.ID].cleanRun(dir, results[i].Stdout)
		}
		states[c.ID].onlySide()
		if err := states[c.ID].probeError(); err != nil {
			return nil, err
		}
		if opt.Recording != nil {
			reference = states[c.ID]
		}
		if states[c.ID].unstreamed {
			noStream = c.ID
		}
		if states[c.ID].upgrades == 0 {
			noWS = c.ID
		}
	}
	sem := make(chan struct{}, opt.Parallel)
	var wg sync.WaitGroup
	for _, i := range longestFirst(opt.Cases, rest) {
		if ctx.Err() != nil {
			break // interrupted: start no more cases
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			runOne(i)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interrupted: %w", err)
	}
	for _, c := range opt.Cases {
		if err := states[c.ID].probeError(); err != nil {
			return nil, err
		}
	}
	followClean(results)
	return results, nil
}

// caseState is one case's side of the server: the conversation it serves
// (built from the agent's first request) and the requests it received.
type caseState struct {
	c      Case
	format Format
	calls  []CallSpec
	dir    string // the folder the agent runs in: the probe's paths
	// first: the case runs first and alone (clean, or replay); its
	// probe error ends the run.
	first bool
	// recorded: the case replays a recording (no side requests, no probe).
	recorded bool

	mu       sync.Mutex
	start    time.Time
	conv     *conversation
	probeErr error // the probe cannot build its turn from the agent's tools
	reqs     []received
	bodies   [][]byte
	frames   [][]byte   // per body, the response.create frame it came as (nil: over HTTP)
	upgrades int        // the agent's WebSocket handshakes
	toolset  []string   // the conversation's tool names (side.go)
	sides    [][]byte   // the side requests' bodies
	answers  []Answer   // what each judged request was answered
	unrouted []Unrouted // requests on no format's path
	changed  bool       // the transform changed a reply (else SKIPPED)
	stopped  bool       // a request decided the case: the agent was stopped (decided.go)
	// unstreamed: the agent asks for no stream (streamless.go); set by a
	// stream case's run that found so (the first case's: the run's), and
	// before the run of the faults that still run.
	unstreamed bool

	limits     caseLimits
	retryAfter time.Duration // fault_429's
	keptBytes  int           // of bodies
	over       error         // the agent sent more than limits: ErrCaseCap
	stop       func()        // kills the agent (set while it runs)
	deadline   *caseDeadline // when the agent is stopped (set while it runs)
}

func (st *caseState) probeError() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.probeErr
}

// reply answers one request of the case.
func (st *caseState) reply(sr serve.Request) (serve.Reply, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.admit(st.limits, len(sr.Body)) {
		return errorReply(http.StatusRequestEntityTooLarge, "conform: "+st.over.Error()), nil
	}
	if !st.format.Serves(sr.Path) {
		hint := ""
		if f := wire.ForPath(sr.Path); f != nil {
			hint = fmt.Sprintf(" (-api %s speaks that format)", f.Name)
		}
		err := fmt.Errorf("%w: conform runs -api %s, which posts to %s, and the agent posted to %s%s",
			ErrWrongPath, st.format.Name, wire.BaseURL(st.format.Format, "...")+st.format.Path(sr.Model), sr.Path, hint)
		st.reqs = append(st.reqs, received{err: err, at: time.Since(st.start)})
		st.bodies = append(st.bodies, sr.Body)
		st.frames = append(st.frames, sr.Frame)
		if hint != "" && st.first {
			st.probeErr = err // the agent speaks another format: no case can pass
		}
		return errorReply(http.StatusNotFound, "conform: "+err.Error()), nil
	}
	if st.format.side != nil {
		if r, ok := st.format.side(st.format, sr.Path, sr.Body); ok {
			return r, nil
		}
	}
	req, err := st.format.Read(sr.Body)
	req = st.format.readPath(sr.Path, req)
	if err == nil && st.isSide(req) {
		st.sides = append(st.sides, sr.Body)
		return sideReply(st.format, req, len(st.sides)), nil
	}
	st.reqs = append(st.reqs, received{req: req, err: err, at: time.Since(st.start)})
	st.bodies = append(st.bodies, sr.Body)
	st.frames = append(st.frames, sr.Frame)
	st.moveDeadline()
	if err != nil {
		return errorReply(http.StatusBadRequest, "conform: "+err.Error()), nil
	}
	if st.conv == nil && st.probeErr == nil { // probe mode: built from the first request
		if st.c.Captured != nil {
			if st.conv, st.probeErr = st.format.buildCaptured(req, st.c.Captured); st.probeErr != nil {
				st.probeErr = fmt.Errorf("case %s (%s): %w", st.c.ID, st.c.File, st.probeErr)
			}
		} else {
			st.conv, st.probeErr = st.format.build(req, st.calls, st.dir)
		}
	}
	if st.probeErr != nil {
		return errorReply(http.StatusBadRequest, "conform: "+st.probeErr.Error()), nil
	}
	if st.decided(req, len(st.reqs)) {
		return st.stopDecided(), nil
	}
	ans, changed, err := st.c.answer(st.conv, req.assistants(), len(st.reqs))
	st.changed = st.changed || changed
	if err != nil {
		return errorReply(http.StatusInternalServerError, "conform: "+err.Error()), nil
	}
	if r, ok := st.plainReply(req, ans); ok {
		st.answers = append(st.answers, Answer{Request: len(st.reqs), Served: r.Body, Whole: true})
		return r, nil
	}
	a := Answer{Request: len(st.reqs), Served: ans.Body, Fault: ans.Fault, Status: ans.Status}
	if changed {
		// a fault serves the clean turn: it is changed, its body is not
		if clean, _, _ := (Case{}).answer(st.conv, req.assistants(), 0); !bytes.Equal(clean.Body, ans.Body) {
			a.Clean = clean.Body
		}
	}
	st.answers = append(st.answers, a)
	r, err := st.serveAnswer(ans)
	if shape := st.frameShape(req.assistants(), ans.Body); shape.Kind != "" && r.Fault.Kind == "" && sr.Transport == serve.TransportWebSocket {
		r.Fault = shape
		st.changed = true
	}
	return r, err
}

// serveAnswer turns a served answer into what the server sends.
func (st *caseState) serveAnswer(ans served) (serve.Reply, error) {
	switch ans.Fault {
	case Fault429:
		r := errorReply(http.StatusTooManyRequests, "conform fault: rate limited; retry after the Retry-After header's seconds")
		r.Header.Set("Retry-After", seconds(st.retryAfter))
		return r, nil
	case Fault500:
		return errorReply(http.StatusInternalServerError, "conform fault: the server failed"), nil
	case FaultStall, FaultReset, serve.FaultFrameClose, serve.FaultFrameCloseBare, serve.FaultFrameError:
		cut := st.format.cut
		if cut == nil {
			cut = cutPoint
		}
		n, err := cut(sse.Parse(ans.Body))
		if err != nil {
			n = serve.DefaultFaultAfter
		}
		if k := len(st.answers) - 1; k >= 0 {
			st.answers[k].FaultAfter = n
		}
		return serve.Reply{Body: ans.Body, Header: sseHeader(), Fault: serve.Fault{Kind: ans.Fault, After: n}}, nil
	}
	if ans.Status != 0 {
		return errorReply(ans.Status, ans.Error), nil
	}
	return serve.Reply{Body: ans.Body, Header: sseHeader()}, nil
}

// sseHeader says the reply is a stream: conform's answers always are,
// whatever a transform made of the body's first bytes.
func sseHeader() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return h
}

// errorReply is an OpenAI-shaped error body with its status.
func errorReply(status int, message string) serve.Reply {
	msg, _ := json.Marshal(message) // a string always marshals
	body := fmt.Appendf(nil, `{"error":{"message":%s,"type":"invalid_request_error","code":"conform"}}`+"\n", msg)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return serve.Reply{Status: status, Header: h, Body: body}
}

// run runs the agent on the case's URL and judges it; reference is the
// replay case in recorded mode (nil for the replay itself), clean the
// clean case's run in probe mode (nil for the clean case itself).
func (st *caseState) run(ctx context.Context, opt Options, url string, reference *caseState, clean *cleanRun) Result {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	st.mu.Lock()
	st.start, st.stop = time.Now(), stop
	st.mu.Unlock()
	extra := append(wire.Env(strings.TrimSuffix(url, "/v1"), DummyKey), CaseVariable+"="+st.c.ID)
	timeout, bound := opt.Timeout, opt.RetryTimeout
	if st.c.Fault == FaultStall {
		timeout, bound = opt.StallTimeout, 0
	}
	st.startDeadline(timeout, bound)
	// The agent's own limit is the bound; the case's deadline stops it
	// earlier, through ctx, unless its requests keep coming.
	var p procResult
	if opt.Agent != nil {
		p = runAgentFunc(ctx, opt.Agent, extra, max(timeout, bound), opt.funcGrace)
	} else {
		p = runAgent(ctx, opt.Command, st.c.ID, extra, max(timeout, bound))
	}
	if st.endDeadline() {
		p.timedOut, p.exitCode = true, -1
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	o := outcome{requests: st.reqs, exitCode: p.exitCode, startErr: p.startErr, timedOut: p.timedOut, stdout: p.stdout, stderr: p.stderr, timeout: timeout,
		elapsed: time.Since(st.start), sides: len(st.sides), retryAfter: st.retryAfter, unstreamed: st.unstreamed || st.streamsNone(), clean: clean, text: probeText}
	if st.conv != nil {
		o.turns = len(st.conv.turns)
		if !st.recorded {
			o.text = st.conv.text
		}
	}
	var v verdict
	switch {
	case st.over != nil:
		v = fail("%v: killed", st.over)
	case st.probeErr != nil:
		v = fail("%v", st.probeErr)
	case st.streamsNone() && needsStream(st.c):
		v, st.unstreamed = noStreamVerdict(len(st.reqs)), true
	case st.c.OnArguments && st.conv != nil && vacuous(st.conv.want):
		v = vacuousVerdict(st.c, st.conv.want)
	case st.c.NotOverWebSocket != "" && st.framed():
		v = verdict{status: Skipped, details: "not judged: " + st.c.NotOverWebSocket}
	case st.c.WebSocket != "" && st.upgrades == 0:
		v = verdict{status: Skipped, details: "the agent opened no WebSocket in this case, and its shape travels on one only"}
	case st.c.Transform != nil && !st.changed && len(st.reqs) > 0 && st.allRead():
		v = verdict{status: Skipped, details: "the transform changes none of the replies the agent asked for"}
	case opt.Recording != nil && reference == nil:
		v = checkRecorded(opt.Format, opt.Recording.Requests, "the recording", opt.Recording.Ignore, o)
	case opt.Recording != nil:
		v = checkRecorded(opt.Format, reference.bodies, "the replay", opt.Recording.Ignore, o)
	default:
		var want []Call
		if st.conv != nil {
			want = st.conv.want
		}
		v = checkProbe(st.c, want, o)
	}
	if st.stopped && v.status == Failure {
		v.details += "; conform stopped the agent there"
	}
	v.details += st.deadlineNote(p.timedOut, o.elapsed)
	if isFirstCase(st.c.ID) && st.conv != nil {
		v.details += st.conv.note
	}
	v.details += st.wsNote()
	v = leftBehind(v, p.left)
	return Result{Case: st.c, Status: v.status, Details: v.details, Diff: v.diff, Vacuous: v.vacuous,
		ExitCode: p.exitCode, TimedOut: p.timedOut, Duration: time.Since(st.start),
		Stdout: p.stdout, Stderr: p.stderr, Requests: st.bodies, Frames: st.frames, Side: st.sides, Unrouted: st.unrouted, Answers: st.answers}
}

// allRead reports whether every request the case received was read (none
// was refused for its path or its body): only then can an unchanged reply
// make the case SKIPPED.
func (st *caseState) allRead() bool {
	for _, r := range st.reqs {
		if r.err != nil {
			return false
		}
	}
	return true
}

// serverLog keeps the server's lines about requests it could not route (a
// wrong path under the case's URL), to explain a case that got none.
type serverLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		l.lines = append(l.lines, strings.TrimPrefix(line, "agentvcr serve: "))
	}
	return len(p), nil
}

// about is "; the server answered: LINE" for the first line that names the
// case's URL, or "".
func (l *serverLog) about(id string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, "/s/"+id+"/") {
			return "; it called the server elsewhere, which answered " + line
		}
	}
	return ""
}
