package cli

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
)

// Env is everything a command takes from the process around it. The real
// command passes the process's own; scenarios pass their $WORK folder, their
// environment and their output buffers, so that many run in parallel in one
// test process without touching its working folder or environment.
type Env struct {
	// Dir is the folder relative paths are resolved against.
	Dir string
	// Getenv reads an environment variable ("" when unset).
	Getenv func(string) string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Color allows ANSI colour on Stdout (a terminal, and NO_COLOR unset).
	Color bool
	// Transport carries live requests; nil means http.DefaultTransport.
	// The cassette generator points it at the scripted gateway.
	Transport http.RoundTripper
	// HandleSignals makes SIGINT and SIGTERM stop a run (see watchSignals):
	// the real process only.
	HandleSignals bool
	// WrapTransport, when set, wraps the transport of every run, replay
	// included: the signal tests hold a request there.
	WrapTransport func(http.RoundTripper) http.RoundTripper

	temps *tempDirs // the run's temporary folders, set by cmdRun
}

// ProcessEnv returns the Env of the running process.
func ProcessEnv() Env {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return Env{
		Dir:    dir,
		Getenv: os.Getenv,
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Color:  os.Getenv("NO_COLOR") == "" && isTerminal(os.Stdout),

		HandleSignals: true,
	}
}

// isTerminal reports whether f is a character device (a terminal), without
// a dependency: good enough to decide on colour.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// shown is path p as a report names it: relative to the Env's folder when
// it lies inside it (the folder the user named, from where they ran the
// command), as it is otherwise.
func (e Env) shown(p string) string {
	if rel, err := filepath.Rel(e.Dir, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// path resolves p against the Env's folder.
func (e Env) path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.Dir, p)
}
