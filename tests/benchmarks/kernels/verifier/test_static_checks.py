"""Stage 1 driver: syntax, interface, the target's languages and rules, and feedback text."""

from benchmarks.kernels.suite import SOLUTIONS_ROOT
from benchmarks.kernels.verifier.static_checks import check_solution, format_violations
from sandboxes.targets.base import Violation
from sandboxes.targets.cpu import CpuTarget
from sandboxes.targets.npu.target import NpuTarget


class DslTarget(CpuTarget):
    """A target with its own language module and one extra rule."""

    def allowed_modules(self):
        return ("mydsl",)

    def static_rules(self):
        return (lambda tree: [Violation("dsl", 1, "no raw loops")],)


SOLUTION = "import torch.nn as nn\nimport mydsl\nclass ModelNew(nn.Module):\n    pass\n"
TRITON = "import torch.nn as nn\nimport triton\nclass ModelNew(nn.Module):\n    pass\n"


def test_syntax_error_is_one_violation():
    (violation,) = check_solution("def f(:\n")
    assert violation.rule == "syntax"


def test_missing_model_new():
    assert [v.rule for v in check_solution("import torch\n")] == ["interface"]


def test_target_extends_imports_and_rules():
    assert "imports" in {v.rule for v in check_solution(SOLUTION)}
    assert "dsl" in [v.rule for v in check_solution(SOLUTION, DslTarget())]


def test_the_target_decides_which_kernel_languages_may_be_imported():
    assert check_solution(TRITON) == []
    assert [v.rule for v in check_solution(TRITON, CpuTarget())] == ["imports"]
    assert [v.rule for v in check_solution(TRITON, NpuTarget())] == ["imports"]


def test_feedback_lists_first_violations_and_counts_the_rest():
    text = format_violations([Violation("imports", i, "x") for i in range(10)])
    assert text.startswith("static checks failed:") and "... and 4 more" in text


def test_code_too_deep_to_check_is_refused_not_a_crash():
    """900 unary minuses compile, then overflowed the checks' recursion (the whole bench stopped with a traceback);
    30,000 terms overflow the parser itself."""
    for expression in ("-" * 900 + "1", "+".join(["1"] * 30000)):
        violations = check_solution(f"n = {expression}\n" + TRITON)
        assert [v.rule for v in violations] == ["not_allowed"] and "too deeply" in violations[0].message


TASK_FUNCTIONS = '''

def get_inputs():
    return [torch.rand(16, 16)]


def get_init_inputs():
    return []
'''


def test_unused_task_input_makers_in_a_solution_file_are_left_alone():
    """KernelBench's example kernels and most LLM answers repeat the task's get_inputs(): it was refused for
    torch.rand outside __init__, though the verifier never calls it."""
    good = (SOLUTIONS_ROOT / "reference" / "cpu" / "L1__relu.py").read_text()
    assert check_solution(good + TASK_FUNCTIONS) == []
    used = check_solution(good + TASK_FUNCTIONS + "\nMADE = get_inputs\n")
    assert {v.rule for v in used} == {"framework_compute", "reference_access"}  # named: checked like any code
    defaulted = check_solution(good + "\n\ndef get_inputs(a=torch.rand(3)):\n    return [a]\n")
    assert "framework_compute" in {v.rule for v in defaulted}  # a default runs when the function is defined
