package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
)

// failure is a tool error whose message is model-facing text in the
// registry's locale; Unwrap keeps the cause for callers that test it.
type failure struct {
	msg   string
	cause error
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.cause }

func failf(cause error, format string, args ...any) error {
	return &failure{msg: fmt.Sprintf(format, args...), cause: cause}
}

// resolveFailure explains why Workspace.Resolve refused the path given.
func (t *catalog) resolveFailure(err error, given string) error {
	if errors.Is(err, ErrNULInPath) {
		return failf(err, t.nulF, given)
	}
	return failf(err, t.outsideF, given)
}

// fileFailure explains why the file at rel (root-relative) could not be read.
// It never names an absolute path: only rel and the cause's bare message.
func (t *catalog) fileFailure(err error, rel string, info fs.FileInfo) error {
	shown := showPath(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return failf(err, t.notExistF, shown, showPath(path.Base(rel)))
	case errors.Is(err, ErrIsDirectory):
		pattern := rel + "/*"
		if rel == "." {
			pattern = "*"
		}
		return failf(err, t.isDirF, shown, showPath(pattern))
	case errors.Is(err, ErrNotRegular):
		return failf(err, t.notRegularF, shown, t.kind(info))
	case errors.Is(err, fs.ErrPermission):
		return failf(err, t.permissionF, shown)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return failf(err, t.ioErrorF, shown, err)
}

func (t *catalog) kind(info fs.FileInfo) string {
	if info == nil {
		return t.kindOther
	}
	switch m := info.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		return t.kindPipe
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return t.kindDevice
	case m&fs.ModeSocket != 0:
		return t.kindSocket
	}
	return t.kindOther
}
