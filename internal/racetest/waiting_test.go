package racetest

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// printParallelEnv makes the test binary print the -parallel its tests
// got, under RunWaiting, and run nothing else.
const printParallelEnv = "RACETEST_PRINT_PARALLEL"

func TestMain(m *testing.M) {
	if os.Getenv(printParallelEnv) != "" {
		flag.Set("test.run", "^TestPrintParallel$")
	}
	os.Exit(RunWaiting(m))
}

func TestPrintParallel(t *testing.T) {
	if os.Getenv(printParallelEnv) != "" {
		fmt.Printf("parallel=%s\n", flag.Lookup("test.parallel").Value)
	}
}

// RunWaiting raises -parallel to WaitingParallel per core, unless it was
// given or the binary has the race detector.
func TestRunWaitingRaisesParallel(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	raised := strconv.Itoa(WaitingParallel * runtime.GOMAXPROCS(0))
	if Race {
		raised = strconv.Itoa(runtime.GOMAXPROCS(0))
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, raised},
		{[]string{"-test.parallel=3"}, "3"},
	} {
		cmd := exec.Command(exe, tt.args...)
		cmd.Env = append(os.Environ(), printParallelEnv+"=1")
		out, err := cmd.CombinedOutput()
		if got, _, _ := strings.Cut(string(out), "\n"); err != nil || got != "parallel="+tt.want {
			t.Errorf("%v: %q (%v), want parallel=%s", tt.args, out, err, tt.want)
		}
	}
}
