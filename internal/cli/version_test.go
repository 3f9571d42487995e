package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionText(t *testing.T) {
	for _, tt := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"go install @version: the module version, no commit", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/agentvcr/agentvcr", Version: "v1.2.0"}},
			true, "agentvcr v1.2.0\ncommit unknown: built without version control information\nbuilt with go1.26.0\n"},
		{"go build in a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "dc2204b2765785a16b0ff215e73578baf9d7a446"}, {Key: "vcs.time", Value: "2026-12-03T21:50:49Z"}, {Key: "vcs.modified", Value: "false"}}},
			true, "agentvcr (devel)\ncommit dc2204b2765785a16b0ff215e73578baf9d7a446 (2026-12-03T21:50:49Z)\nbuilt with go1.26.8\n"},
		{"go build in a checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261203215049-dc2204b27657+dirty"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "dc2204b2765785a16b0ff215e73578baf9d7a446"}, {Key: "vcs.modified", Value: "true"}}},
			true, "agentvcr v0.0.0-20261203215049-dc2204b27657+dirty\ncommit dc2204b2765785a16b0ff215e73578baf9d7a446, modified: built with uncommitted changes\nbuilt with go1.26.8\n"},
		{"no main version (a test binary)", &debug.BuildInfo{GoVersion: "go1.26.8"},
			true, "agentvcr (devel)\ncommit unknown: built without version control information\nbuilt with go1.26.8\n"},
		{"no build information", nil, false, "agentvcr (unknown): this binary carries no build information\n"},
	} {
		if got := versionText(tt.info, tt.ok); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	code, stdout, stderr := Capture(Env{Dir: t.TempDir()}, "version")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "agentvcr ") || !strings.Contains(stdout, "\nbuilt with go") {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = Capture(Env{Dir: t.TempDir()}, "version", "v2")
	if code != 2 || stdout != "" || stderr != "agentvcr version: takes no arguments, got \"v2\"\n" {
		t.Errorf("version v2: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
