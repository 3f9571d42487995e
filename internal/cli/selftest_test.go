package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/golden"
	"github.com/agentvcr/agentvcr/tools"
)

func TestSelftestPassesSeven(t *testing.T) {
	code, out, errOut := Capture(Env{Dir: "."}, "selftest")
	golden.Check(t, filepath.Join("testdata", "selftest.golden"), []byte(out))
	if code != 0 || errOut != "" {
		t.Errorf("selftest exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
}

func TestSelftestSaysWhichFailed(t *testing.T) {
	saved := checks[2]
	t.Cleanup(func() { checks[2] = saved })
	checks[2].run = func(context.Context, Env, tools.Lang) (string, error) {
		return "", errors.New("want 8054 runes, got 8000")
	}
	code, out, _ := Capture(Env{Dir: "."}, "selftest")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"✘ 3/7 truncation: want 8054 runes, got 8000\n", "\n6/7 passed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
