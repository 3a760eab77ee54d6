"""Every file of builtin:adversarial is refused with the reason its docstring names
(``expect: STATUS TEXT``; for a rejection TEXT is the rule, then words the reason must contain).

The statically caught hacks cost nothing; native ones are refused by the build's symbol check; the
others run in the real sandbox against a small ReLU task (same interface as L1/relu) and must be
caught by the trusted runner. The gpu and npu folders hold the hacks of those targets' own kernel
languages; the cpu set's Python hacks are refused on every target.
"""

import re

import pytest

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from benchmarks.kernels.verifier.static_checks import check_solution
from benchmarks.kernels.suite import SOLUTIONS_ROOT
from sandboxes.targets.cpu import CpuTarget
from sandboxes.targets.gpu import GpuTarget
from sandboxes.targets.npu.target import NpuTarget
from tests.benchmarks.kernels.verifier.verdicts import task_for
from tests.warm_builds import solution_builds

FOLDER = SOLUTIONS_ROOT / "adversarial"
FILES = sorted(FOLDER.glob("*.py"))
TARGET_FILES = sorted(FOLDER.glob("*/*.py"))
CLASSES = {
    "module-level alias": "alias_module", "__init__ alias": "alias_init", "nn.Module member": "module_member",
    "tensor methods and dunders": "tensor_", "renamed builtins": "renamed_", "rebound-name arithmetic": "rebound_",
    "torch's re-exported modules": "torch_reexport_", "C++ namespace alias": "native_(namespace|using|macro_namespace)",
    "macro token pasting": "native_macro", "inline assembly": "native_(inline_)?asm",
    "threads, syscalls, files, signals from C++": "native_(pthread|kill|fopen|ptrace|burner)",
    "npu kernel bodies": "npu_", "triton kernel bodies": "triton_",
}
"""The classes of issue 16's static hacks, each with at least three differently written solutions."""


def expectation(path):
    status, text = re.search(r"expect: (\w+) (.*)", path.read_text()).groups()
    return status, text.strip()


def statically_caught(path) -> bool:
    return bool(check_solution(path.read_text()))


def assert_rejected_for(reason: str, text: str) -> None:
    rule, *words = text.split()
    assert f"[{rule}]" in reason and all(word in reason for word in words), reason


def test_the_set_covers_the_issue_list():
    names = {p.stem.split("__")[2] for p in FILES}
    assert {"calls_reference_op", "cached_output", "mutates_inputs", "try_except_fallback", "monkeypatch_timer",
            "thread", "extra_stream", "constant_output", "uninitialised_buffer", "lazy_tensor", "fake_score_line",
            "early_exit"} <= names
    names |= {p.stem.split("__")[2] for p in TARGET_FILES}
    counts = {label: sum(bool(re.match(prefix, name)) for name in names) for label, prefix in CLASSES.items()}
    assert min(counts.values()) >= 3, counts


@pytest.mark.parametrize("path", [p for p in FILES if statically_caught(p)], ids=lambda p: p.stem)
def test_static_hacks_are_rejected_by_rule(path, tiny_relu, cpu_target):
    status, text = expectation(path)
    result = evaluate(tiny_relu, path.read_text(), cpu_target)
    assert (result.status.value, status) == ("rejected", "rejected")
    assert result.reason.startswith("static checks failed")
    assert_rejected_for(result.reason, text)


@pytest.mark.parametrize("target", [NpuTarget(), GpuTarget()], ids=lambda t: t.name)
def test_python_hacks_are_refused_on_every_target(target):
    portable = [p for p in FILES if statically_caught(p) and "native" not in p.read_text()]
    for path in portable:
        assert_rejected_for("\n".join(map(str, check_solution(path.read_text(), target))), expectation(path)[1])
    assert len(portable) >= 25


@pytest.mark.parametrize("path", [p for p in TARGET_FILES if statically_caught(p)], ids=lambda p: p.stem)
def test_kernel_language_hacks_are_rejected_on_their_target(path):
    target = {"npu": NpuTarget, "gpu": GpuTarget}[path.parent.name]()
    assert_rejected_for("\n".join(map(str, check_solution(path.read_text(), target))), expectation(path)[1])


CUDA_NAMESPACE_ALIAS = FOLDER / "gpu" / "L1__relu__cuda_namespace_alias.py"


@pytest.mark.slow
@pytest.mark.nvcc
@pytest.mark.warm_build(solution_builds(GpuTarget, CUDA_NAMESPACE_ALIAS))
def test_cuda_compile_only_check_refuses_aten_through_a_namespace_alias(tiny_relu, sandbox, cpu_target):
    path = CUDA_NAMESPACE_ALIAS
    result = evaluate(tiny_relu, path.read_text(), GpuTarget(cpu_target.builder.cache), sandbox=sandbox)
    assert result.status.value == "rejected" and "native check failed" in result.reason
    assert_rejected_for(result.reason, expectation(path)[1])


@pytest.fixture(scope="module")
def persistent_runners():
    """One pool for the whole module: the hacks go through the same long-lived servers back to back."""
    with VerifierPool() as pool:
        yield pool


RUNTIME_FILES = [p for p in FILES if not statically_caught(p)]


TORCH_HEADER_BUILDS = {p: solution_builds(CpuTarget, p) for p in RUNTIME_FILES if "load_inline" in p.read_text()}
"""The runtime hacks that build against torch's headers (about a minute each): built early (tests/warm_builds.py)."""


def runtime_case(path, mode):
    marks = [pytest.mark.warm_build(TORCH_HEADER_BUILDS[path])] if path in TORCH_HEADER_BUILDS else []
    return pytest.param(path, mode, marks=marks)


RUNTIME_CASES = [runtime_case(p, "persistent") for p in RUNTIME_FILES] + [
    runtime_case(p, "one-shot") for p in RUNTIME_FILES if "runtime:" not in p.read_text()]
"""Files with a ``runtime:`` line are also judged stage by stage, many times over, in the test module of
their class (test_timing, test_checks, test_confine...): here they run once, through a persistent runner."""


@pytest.mark.parametrize("path,mode", RUNTIME_CASES, ids=lambda v: getattr(v, "stem", v))
def test_runtime_hacks_are_caught_by_the_trusted_runner(path, mode, request, cpu_target, sandbox, quick,
                                                        persistent_runners):
    status, text = expectation(path)
    runner = persistent_runners if mode == "persistent" else None
    result = evaluate(task_for(path, request), path.read_text(), cpu_target, sandbox=sandbox, config=quick,
                      runner=runner)
    assert result.status.value == status, result.reason
    assert re.search(text.replace(" ", ".*"), result.reason), result.reason
    if text.startswith("native_"):
        assert "native check failed" in result.reason
    assert not result.correct and result.speedup is None
