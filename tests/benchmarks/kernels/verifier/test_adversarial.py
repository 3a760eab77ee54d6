"""Every file of builtin:adversarial is refused with the reason its docstring names (``expect: STATUS TEXT``).

The statically caught hacks cost nothing; the others run in the real sandbox against a small ReLU
task (same interface as L1/relu) and must be caught by the trusted runner.
"""

import re

import pytest

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from benchmarks.kernels.verifier.static_checks import check_solution
from benchmarks.kernels.suite import SOLUTIONS_ROOT

FILES = sorted((SOLUTIONS_ROOT / "adversarial").glob("*.py"))


def expectation(path):
    status, text = re.search(r"expect: (\w+) (.*)", path.read_text()).groups()
    return status, text.strip()


def statically_caught(path) -> bool:
    return bool(check_solution(path.read_text()))


def test_the_set_covers_the_issue_list():
    names = {p.stem.split("__")[2] for p in FILES}
    assert {"calls_reference_op", "cached_output", "mutates_inputs", "try_except_fallback", "monkeypatch_timer",
            "thread", "extra_stream", "constant_output", "uninitialised_buffer", "lazy_tensor", "fake_score_line",
            "early_exit"} <= names
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", [p for p in FILES if statically_caught(p)], ids=lambda p: p.stem)
def test_static_hacks_are_rejected_by_rule(path, tiny_relu, cpu_target):
    status, rule = expectation(path)
    result = evaluate(tiny_relu, path.read_text(), cpu_target)
    assert (result.status.value, status) == ("rejected", "rejected")
    assert f"[{rule}]" in result.reason


@pytest.fixture(scope="module")
def persistent_runners():
    """One pool for the whole module: the hacks go through the same long-lived servers back to back."""
    with VerifierPool() as pool:
        yield pool


@pytest.mark.parametrize("mode", ["one-shot", "persistent"])
@pytest.mark.parametrize("path", [p for p in FILES if not statically_caught(p)], ids=lambda p: p.stem)
def test_runtime_hacks_are_caught_by_the_trusted_runner(path, mode, tiny_relu, cpu_target, sandbox, quick,
                                                        persistent_runners):
    status, text = expectation(path)
    runner = persistent_runners if mode == "persistent" else None
    result = evaluate(tiny_relu, path.read_text(), cpu_target, sandbox=sandbox, config=quick, runner=runner)
    assert result.status.value == status, result.reason
    assert re.search(text.replace(" ", ".*"), result.reason), result.reason
    assert not result.correct and result.speedup is None
