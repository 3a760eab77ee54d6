"""Stage 1 of the verifier: run the static rule catalogue (plus the target's rules) over a solution."""

from __future__ import annotations

import ast
from functools import partial
from typing import Sequence

from benchmarks.kernels.verifier.static_rules import ALLOWED_IMPORTS, DEFAULT_RULES, imports_rule
from sandboxes.targets.base import StaticRule, Target, Violation

MAX_REPORTED = 6


def check_solution(source: str, target: Target | None = None) -> list[Violation]:
    """All violations in ``source``, sorted by line; empty means the solution may be compiled."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [Violation("syntax", error.lineno or 0, f"not valid Python: {error.msg}")]
    rules: list[StaticRule] = [rule for rule in DEFAULT_RULES if rule is not imports_rule]
    allowed = ALLOWED_IMPORTS + tuple(target.allowed_modules() if target else ())
    rules.append(partial(imports_rule, allowed=allowed))
    rules += list(target.static_rules() if target else ())
    found = {v for rule in rules for v in rule(tree)}
    if not any(isinstance(n, ast.ClassDef) and n.name == "ModelNew" for n in tree.body):
        found.add(Violation("interface", 1, "the solution must define class ModelNew(nn.Module) at module level"))
    return sorted(found, key=lambda v: (v.line, v.rule, v.message))


def format_violations(violations: Sequence[Violation]) -> str:
    """Feedback text: the first few violations, one per line, and how many more there were."""
    lines = [str(v) for v in violations[:MAX_REPORTED]]
    if len(violations) > MAX_REPORTED:
        lines.append(f"... and {len(violations) - MAX_REPORTED} more")
    return "static checks failed:\n" + "\n".join(lines)
