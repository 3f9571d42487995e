"""The wheel's own tests, run in a virtual environment it was installed
into (.ci/run): a scripted conversation served to the standard-library agent
(examples/python-stdlib), clean and under a quirk, then conform on that
agent, as a report and as parametrized test items."""
import os
import pathlib
import subprocess
import sys

import pytest

import agentvcr_harness
from agentvcr_harness import conform, serve
from agentvcr_harness.pytest_plugin import conform_params

HERE = pathlib.Path(__file__).parent
AGENT = os.environ["AGENTVCR_EXAMPLE_AGENT"]  # examples/python-stdlib/agent.py
SANDBOX = os.environ["AGENTVCR_SANDBOX"]  # demo/sandbox: the folder its tools read
CONCLUSION = "Let me look at the files.\ndivide in src/calc.js returns a / b without checking b.\n"


def run_agent(base_url):
    env = dict(os.environ, OPENAI_BASE_URL=base_url, OPENAI_API_KEY="dummy", AGENT_MODEL="probe")
    return subprocess.run([sys.executable, AGENT, "why is the test red?"], cwd=SANDBOX, env=env, capture_output=True, text=True, timeout=60)


def test_the_binary_is_the_wheels():
    assert agentvcr_harness.binary() == str(pathlib.Path(agentvcr_harness.__file__).parent / "bin" / "agentvcr")


def test_a_script_served_clean_and_under_a_quirk(agentvcr_serve):
    s = agentvcr_serve(script=HERE / "probe.yaml")
    assert s.url("chat", "probe") == f"{s.root}/s/probe/v1"
    assert s.url("gemini", "probe~ids_dropped") == f"{s.root}/s/probe~ids_dropped"
    for name in ["probe", "probe~args_one_rune"]:
        out = run_agent(s.url("chat", name))
        assert out.returncode == 0, out.stderr
        assert out.stdout == CONCLUSION


def test_a_bad_script_is_its_line():
    with pytest.raises(RuntimeError, match=r"bad script: .*bad\.yaml:1: not a script: a script is a mapping of name, format, quirk and turns"):
        serve(script=HERE / "bad.yaml")


def test_conform_gives_the_report():
    report = conform([sys.executable, AGENT], cases=["clean", "args_one_rune"], cwd=SANDBOX, timeout="30s")
    assert [(r.id, r.status) for r in report] == [("clean", "SUCCESS"), ("args_one_rune", "SUCCESS")]
    assert report.exit_code == 0


@pytest.mark.parametrize("case", conform_params(command=[sys.executable, AGENT], cases=["clean", "args_one_rune", "ids_dropped"], cwd=SANDBOX, timeout="30s"))
def test_conform(case):
    case.check()
