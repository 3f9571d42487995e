package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The hostile agents: the test binary re-executed with CONFORM_TEST_HOSTILE
// set to one of these modes plays an agent that attacks conform itself
// rather than getting a stream wrong. Its files go to CONFORM_TEST_DIR.
const (
	hostileBackground = "background" // starts a background sleep and exits 0 at once
	hostileSession    = "session"    // starts a child that starts a setsid sleep, then hangs
	hostileSessionKid = "sessionkid" // that child: starts the setsid sleep and hangs
	hostileHang       = "pidhang"    // writes its pid and hangs
	hostileEnv        = "env"        // prints its environment, sorted, and exits 0
	hostileFlood      = "flood"      // posts CONFORM_TEST_FLOOD bytes per request in a loop
	hostileEscapes    = "escapes"    // writes ESC and BEL sequences to stderr and exits 1
)

const (
	hostileModeEnv = "CONFORM_TEST_HOSTILE"
	hostileDirEnv  = "CONFORM_TEST_DIR"
	floodEnv       = "CONFORM_TEST_FLOOD"
	// miniConformEnv makes the test binary a small conform: it runs the
	// clean case on a hostileHang agent, for a test to kill it.
	miniConformEnv = "CONFORM_TEST_MINI"
)

// init runs before TestMain: the hostile modes never reach the tests.
func init() {
	if mode := os.Getenv(hostileModeEnv); mode != "" {
		os.Exit(hostileAgent(mode))
	}
	if dir := os.Getenv(miniConformEnv); dir != "" {
		os.Exit(miniConform(dir))
	}
}

// hostileCommand runs this test binary as the hostile agent of mode, with
// dir as its folder and extra variables.
func hostileCommand(t *testing.T, mode, dir string, extra ...string) Command {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), hostileModeEnv+"="+mode, hostileDirEnv+"="+dir)
	return Command{Path: exe, Env: append(env, extra...)}
}

func hostileAgent(mode string) int {
	dir := os.Getenv(hostileDirEnv)
	writePid := func(name string, pid int) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strconv.Itoa(pid)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "hostile agent:", err)
			os.Exit(5)
		}
	}
	start := func(c *exec.Cmd) *exec.Cmd {
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "hostile agent:", err)
			os.Exit(5)
		}
		return c
	}
	switch mode {
	case hostileBackground:
		writePid("background.pid", start(exec.Command("sleep", "300")).Process.Pid)
		return 0
	case hostileSession:
		exe, _ := os.Executable()
		kid := exec.Command(exe)
		kid.Env = append(os.Environ(), hostileModeEnv+"="+hostileSessionKid)
		writePid("kid.pid", start(kid).Process.Pid)
		time.Sleep(time.Hour)
	case hostileSessionKid:
		c := exec.Command("sleep", "300")
		newSession(c)
		writePid("setsid.pid", start(c).Process.Pid)
		time.Sleep(time.Hour)
	case hostileHang:
		writePid("agent.pid", os.Getpid())
		time.Sleep(time.Hour)
	case hostileEnv:
		env := os.Environ()
		slices.Sort(env)
		fmt.Println(strings.Join(env, "\n"))
		return 0
	case hostileFlood:
		size, _ := strconv.Atoi(os.Getenv(floodEnv))
		body, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "tools": testTools,
			"messages": []map[string]string{{"role": "user", "content": strings.Repeat("x", size)}}})
		url := strings.TrimRight(os.Getenv("OPENAI_BASE_URL"), "/") + "/chat/completions"
		for {
			resp, err := http.Post(url, "application/json", bytes.NewReader(body))
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	case hostileEscapes:
		fmt.Fprint(os.Stderr, "starting\n\x1b]0;pwned\x07\x1b[31mred\x1b[0m and a bell\x07\n")
		return 1
	}
	if code, ok := hostileDaemon(mode); ok {
		return code
	}
	return 4
}

// miniConform runs the clean case on a hostileHang agent writing to dir,
// for an hour, and says so on stdout once the agent has started.
func miniConform(dir string) int {
	exe, _ := os.Executable()
	env := append(os.Environ(), hostileModeEnv+"="+hostileHang, hostileDirEnv+"="+dir)
	only, _ := SelectCases(Cases(), []string{"clean"})
	_, err := Run(context.Background(), Options{Folder: agentFolder, Command: Command{Path: exe, Env: env}, Cases: only, Timeout: time.Hour})
	fmt.Fprintln(os.Stderr, "mini conform returned:", err)
	return 1
}

// readPid reads a pid a hostile agent wrote to dir, waiting for it at most
// a minute.
func readPid(t *testing.T, dir, name string) int {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if pid, perr := strconv.Atoi(string(b)); err == nil && perr == nil {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after a minute: %v", name, err)
		}
	}
}
