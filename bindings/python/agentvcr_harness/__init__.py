"""agentvcr in the tests you already write, on the Python standard library
alone: serve() starts `agentvcr serve` on loopback and gives its URLs,
conform() runs `agentvcr conform` on an agent and gives its JSON report, and
the pytest plugin (agentvcr_harness.pytest_plugin, registered by the wheel)
turns both into fixtures and parametrized test items. The binary is
$AGENTVCR_BINARY, else the one the wheel carries (agentvcr_harness/bin)."""
import json
import os
import pathlib
import subprocess
import tempfile
import threading
import urllib.parse

__all__ = ["binary", "serve", "conform", "Served", "CaseResult"]

# What each wire format's base URL adds to the server's root: /v1 for
# OpenAI's formats, nothing for Anthropic's and Gemini's.
BASE_PATHS = {"chat": "/v1", "responses": "/v1", "messages": "", "gemini": ""}


def binary():
    """The path of the agentvcr binary."""
    env = os.environ.get("AGENTVCR_BINARY")
    if env:
        return env
    carried = pathlib.Path(__file__).parent / "bin" / "agentvcr"
    if carried.exists():
        return str(carried)
    raise RuntimeError("agentvcr_harness: no agentvcr binary: install the wheel built for this platform, or set AGENTVCR_BINARY to one")


def _listed(v):
    if v is None:
        return []
    return [v] if isinstance(v, (str, os.PathLike)) else list(v)


class Served:
    """A running `agentvcr serve`: base_url (.../v1), root, url(), close()."""

    def __init__(self, proc, base_url):
        self._proc = proc
        self.base_url = base_url
        self.root = base_url[: -len("/v1")] if base_url.endswith("/v1") else base_url
        self._stderr = []
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()

    def _read_stderr(self):
        for line in self._proc.stderr:
            self._stderr.append(line)

    @property
    def stderr(self):
        return "".join(self._stderr)

    def url(self, format="chat", name=None):
        """The base URL a client of format (chat, responses, messages,
        gemini) takes: on the case URL of name (NAME or NAME~QUIRK), or the
        plain one."""
        if format not in BASE_PATHS:
            raise ValueError(f"no format {format!r}: the formats are {', '.join(BASE_PATHS)}")
        at = f"{self.root}/s/{urllib.parse.quote(name, safe='~+')}" if name else self.root
        return at + BASE_PATHS[format]

    def close(self):
        if self._proc.poll() is None:
            self._proc.terminate()
        self._proc.wait(timeout=10)
        self._reader.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def serve(cassette=None, script=None, quirk=None, fault=None, match=None, journal=None, cwd=None):
    """Start `agentvcr serve` on loopback with these cassettes (names or
    .yaml paths), scripts (.yaml files), quirk, fault and match; return a
    Served once it listens. A server that exits first raises RuntimeError
    with its stderr (a bad script: its one line)."""
    args = [binary(), "serve", "-listen", "127.0.0.1:0"]
    for c in _listed(cassette):
        args += ["-cassette", str(c)]
    for s in _listed(script):
        args += ["-script", str(s)]
    for flag, value in (("-quirk", quirk), ("-fault", fault), ("-match", match), ("-journal", journal)):
        if value:
            args += [flag, str(value)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, cwd=cwd)
    line = proc.stdout.readline()
    if "=" not in line:
        proc.wait(timeout=10)
        raise RuntimeError(f"agentvcr serve exited {proc.returncode} before it listened: {proc.stderr.read().strip()}")
    return Served(proc, line.strip().split("=", 1)[1])


class CaseResult(dict):
    """One case of a conform report (id, status, details...); check()
    fails (AssertionError) a FAILURE the baseline does not expect."""

    @property
    def id(self):
        return self["id"]

    @property
    def status(self):
        return self["status"]

    def check(self):
        if self["status"] == "FAILURE" and not self.get("expected_failure"):
            raise AssertionError(f"{self['id']}: {self['details']}" + (f"\n{self['diff']}" if self.get("diff") else ""))


class Report(list):
    """A conform report: a list of CaseResult, with exit_code, stdout and
    stderr."""

    exit_code = None
    stdout = ""
    stderr = ""


def conform(command, api=None, baseline=None, cases=None, case_files=None, calls=None, timeout=None, parallel=None, cwd=None, env=None):
    """Run `agentvcr conform` on command (the program and its arguments) and
    return its JSON report. RuntimeError when conform wrote none (a probe it
    could not build, an agent that would not start)."""
    if not command:
        raise ValueError("conform needs command: the agent as a list, [program, *args]")
    with tempfile.TemporaryDirectory(prefix="agentvcr-conform-") as tmp:
        report = os.path.join(tmp, "report.json")
        args = [binary(), "conform", "-q", "-json", report]
        for flag, value in (("-api", api), ("-baseline", baseline), ("-timeout", timeout), ("-p", parallel)):
            if value:
                args += [flag, str(value)]
        for c in _listed(cases):
            args += ["-case", c]
        for d in _listed(case_files):
            args += ["-cases", str(d)]
        for c in _listed(calls):
            args += ["-call", c]
        args += ["--", *command]
        done = subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env)
        try:
            with open(report) as f:
                results = Report(CaseResult(r) for r in json.load(f))
        except (OSError, ValueError):
            raise RuntimeError(f"agentvcr conform exited {done.returncode} with no report: {done.stderr.strip()}") from None
    results.exit_code, results.stdout, results.stderr = done.returncode, done.stdout, done.stderr
    return results
