"""The pytest plugin of agentvcr_harness (registered by the wheel's pytest11
entry point): the fixture agentvcr_serve, a factory whose servers stop when
the test ends, and conform_params, conform's cases as parametrized test
items:

    @pytest.mark.parametrize("case", conform_params(command=["python3", "agent.py"]))
    def test_conform(case):
        case.check()

A SKIPPED case is skipped, with its reason; a FAILURE the baseline does not
expect fails; the rest pass."""
import pytest

from . import conform, serve


@pytest.fixture
def agentvcr_serve():
    """serve(...) as a fixture: every server it starts is closed after the test."""
    started = []

    def start(**options):
        s = serve(**options)
        started.append(s)
        return s

    yield start
    for s in started:
        s.close()


def conform_params(**options):
    """Run conform once (at collection) and give one pytest.param per case,
    its id the case's."""
    params = []
    for r in conform(**options):
        marks = [pytest.mark.skip(reason=r["details"])] if r["status"] == "SKIPPED" else []
        params.append(pytest.param(r, id=r["id"], marks=marks))
    return params
