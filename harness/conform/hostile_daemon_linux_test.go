package conform

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The hostile agents that detach a daemon from everything a sweep used to
// look at, then do the clean case right (agentGood) and exit 0, and the
// one that makes orphans exit while the case runs. Linux only: they
// rewrite /proc/self and count on conform being a subreaper.
const (
	hostileRetitled   = "retitled"   // starts a setsid daemon that rewrites its command line and environment
	hostileRetitledD  = "retitledd"  // that daemon: its command line and environment gone, named "retitled"
	hostileRemarked   = "remarked"   // exports another AGENTVCR_CONFORM_MARK, then starts a setsid sleep
	hostileOrphans    = "orphans"    // its child starts orphanCount `true` and exits; then it waits for dir/release
	hostileOrphansKid = "orphanskid" // that child
)

// orphanCount is how many processes hostileOrphans leaves to exit as
// conform's children.
const orphanCount = 20

// hostileDaemon plays the modes above; ok is false for another mode.
func hostileDaemon(mode string) (code int, ok bool) {
	dir := os.Getenv(hostileDirEnv)
	fail := func(err error) (int, bool) {
		fmt.Fprintln(os.Stderr, "hostile agent:", err)
		return 5, true
	}
	good := func() (int, bool) {
		return testAgent(&agentRun{ctx: context.Background(), getenv: os.Getenv, stdout: os.Stdout, stderr: os.Stderr,
			patience: slow * 3 * time.Second}, agentGood), true
	}
	exe, _ := os.Executable()
	switch mode {
	case hostileRetitled:
		d := exec.Command(exe)
		d.Env = append(os.Environ(), hostileModeEnv+"="+hostileRetitledD)
		newSession(d)
		if err := d.Start(); err != nil {
			return fail(err)
		}
		if err := writeFile(dir, "daemon.pid", strconv.Itoa(d.Process.Pid)); err != nil {
			return fail(err)
		}
		// The case goes on only once the daemon has no mark left.
		if err := waitFile(dir, "daemon.ready"); err != nil {
			return fail(err)
		}
		return good()
	case hostileRetitledD:
		if err := retitle("retitled"); err != nil {
			return fail(err)
		}
		env, err := os.ReadFile("/proc/self/environ")
		if err != nil || bytes.Contains(env, []byte(markVariable)) {
			return fail(fmt.Errorf("the environment still reads %q (%v)", env, err))
		}
		if err := writeFile(dir, "daemon.ready", ""); err != nil {
			return fail(err)
		}
		time.Sleep(time.Hour)
	case hostileRemarked:
		os.Setenv(markVariable, "0123456789abcdef0123456789abcdef")
		d := exec.Command("sleep", "300")
		newSession(d)
		if err := d.Start(); err != nil {
			return fail(err)
		}
		if err := writeFile(dir, "daemon.pid", strconv.Itoa(d.Process.Pid)); err != nil {
			return fail(err)
		}
		return good()
	case hostileOrphans:
		kid := exec.Command(exe)
		kid.Env = append(os.Environ(), hostileModeEnv+"="+hostileOrphansKid)
		if out, err := kid.CombinedOutput(); err != nil {
			return fail(fmt.Errorf("%v: %s", err, out))
		}
		if err := writeFile(dir, "orphans.done", ""); err != nil {
			return fail(err)
		}
		if err := waitFile(dir, "release"); err != nil {
			return fail(err)
		}
		return 0, true
	case hostileOrphansKid:
		var pids []string
		for range orphanCount {
			c := exec.Command("true")
			if err := c.Start(); err != nil {
				return fail(err)
			}
			pids = append(pids, strconv.Itoa(c.Process.Pid))
		}
		if err := writeFile(dir, "orphans.pids", strings.Join(pids, " ")); err != nil {
			return fail(err)
		}
		return 0, true // not waiting: they are re-parented to conform
	default:
		return 0, false
	}
	return 4, true
}

// retitle does what daemons that set their process title do: it writes
// title over the memory of its command line and environment, which is
// all /proc/self/cmdline and /proc/self/environ read, and names itself
// title (/proc/self/comm).
func retitle(title string) error {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return err
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	// Fields 48 and 51 of proc(5), arg_start and env_end, counted from
	// the state, field 3.
	if len(f) < 49 {
		return fmt.Errorf("/proc/self/stat has %d fields after the name", len(f))
	}
	start, err1 := strconv.ParseUint(f[48-3], 10, 64)
	end, err2 := strconv.ParseUint(f[51-3], 10, 64)
	if err1 != nil || err2 != nil || end <= start {
		return fmt.Errorf("no command line and environment in /proc/self/stat: %q", f[45:49])
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer mem.Close()
	area := make([]byte, end-start)
	copy(area, title)
	if _, err := mem.WriteAt(area, int64(start)); err != nil {
		return err
	}
	return os.WriteFile("/proc/self/comm", []byte(title), 0)
}

// writeFile writes text to dir/name.
func writeFile(dir, name, text string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
}

// waitFile waits at most a minute for dir/name to exist.
func waitFile(dir, name string) error {
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no %s after a minute", name)
		}
	}
}
