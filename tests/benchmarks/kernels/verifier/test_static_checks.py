"""Stage 1 driver: syntax, interface, target rules and allowed modules."""

from benchmarks.kernels.verifier.static_checks import check_solution, format_violations
from sandboxes.targets.base import Violation
from sandboxes.targets.cpu import CpuTarget


class DslTarget(CpuTarget):
    """A target with its own language module and one extra rule."""

    def allowed_modules(self):
        return ("mydsl",)

    def static_rules(self):
        return (lambda tree: [Violation("dsl", 1, "no raw loops")],)


SOLUTION = "import torch.nn as nn\nimport mydsl\nclass ModelNew(nn.Module):\n    pass\n"


def test_syntax_error_is_one_violation():
    (violation,) = check_solution("def f(:\n")
    assert violation.rule == "syntax"


def test_missing_model_new():
    assert [v.rule for v in check_solution("import torch\n")] == ["interface"]


def test_target_extends_imports_and_rules():
    assert "imports" in {v.rule for v in check_solution(SOLUTION)}
    assert [v.rule for v in check_solution(SOLUTION, DslTarget())] == ["dsl"]


def test_feedback_lists_first_violations_and_counts_the_rest():
    text = format_violations([Violation("imports", i, "x") for i in range(10)])
    assert text.startswith("static checks failed:") and "... and 4 more" in text
