"""Stage 1 of the verifier: the allow-list and the structural rules (plus the target's own) over a solution.

Which kernel languages a solution may use (``native`` C++/CUDA, ``triton``, the ``npu`` language)
comes from the target; without one, any of them.
"""

from __future__ import annotations

import ast
from functools import partial
from typing import Sequence

from benchmarks.kernels.verifier.static.check import allow_list_rule
from benchmarks.kernels.verifier.static_rules import ALL_LANGUAGES, DEFAULT_RULES, allowed_imports, imports_rule
from sandboxes.targets.base import StaticRule, Target, Violation

MAX_REPORTED = 6
ENTRY = "ModelNew"
TASK_FUNCTIONS = ("get_inputs", "get_init_inputs")
"""The task's input makers, which KernelBench-style solution files often repeat: the verifier never calls a solution's
own (it makes the inputs itself), so plain definitions of them that nothing else names are left unchecked."""
TOO_DEEP = Violation("not_allowed", 0, "the code nests too deeply to be checked (an expression of hundreds of "
                                       "operators or brackets); write it flat")


def check_solution(source: str, target: Target | None = None) -> list[Violation]:
    """All violations in ``source``, sorted by line; empty means the solution may be compiled."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [Violation("syntax", error.lineno or 0, f"not valid Python: {error.msg}")]
    except (RecursionError, MemoryError):
        return [TOO_DEEP]
    tree.body = [node for node in tree.body if not _unused_task_function(node, tree)]
    languages = tuple(target.kernel_languages) if target else ALL_LANGUAGES
    allowed = allowed_imports(languages) + tuple(target.allowed_modules() if target else ())
    rules: list[StaticRule] = [*DEFAULT_RULES, partial(imports_rule, allowed=allowed),
                               partial(allow_list_rule, languages=languages)]
    rules += list(target.static_rules() if target else ())
    try:
        found = {v for rule in rules for v in rule(tree)}
    except RecursionError:
        return [TOO_DEEP]
    if not any(isinstance(n, ast.ClassDef) and n.name == ENTRY for n in tree.body):
        found.add(Violation("interface", 1, "the solution must define class ModelNew(nn.Module) at module level"))
    return sorted(found, key=lambda v: (v.line, v.rule, v.message))


def _unused_task_function(node: ast.stmt, tree: ast.Module) -> bool:
    """Whether ``node`` is a plain module-level ``def get_inputs():`` (or ``get_init_inputs``) that nothing in the
    module names: no decorator, default or annotation runs at definition time, so its body never runs at all."""
    if not (isinstance(node, ast.FunctionDef) and node.name in TASK_FUNCTIONS) or node.decorator_list or node.returns:
        return False
    arguments = node.args
    if arguments.defaults or arguments.kw_defaults or any(a.annotation for a in ast.walk(arguments)
                                                            if isinstance(a, ast.arg)):
        return False
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return node.name not in names and not any(node.name in text for text in strings)


def format_violations(violations: Sequence[Violation]) -> str:
    """Feedback text: the first few violations, one per line, and how many more there were."""
    lines = [str(v) for v in violations[:MAX_REPORTED]]
    if len(violations) > MAX_REPORTED:
        lines.append(f"... and {len(violations) - MAX_REPORTED} more")
    return "static checks failed:\n" + "\n".join(lines)
