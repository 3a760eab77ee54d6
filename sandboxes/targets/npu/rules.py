"""Static rules for npu solutions, on top of the harness's catalogue: kernels may touch memory only
through the kernel language, so simulator internals (``_``-prefixed names) are off limits."""

from __future__ import annotations

import ast

from sandboxes.targets.base import Violation

INTERNAL_NAMES = {"GmAddr", "CoreContext", "current_core", "to_gm", "CoreTimeline", "Slot"}


def private_access_rule(tree: ast.Module) -> list[Violation]:
    """No ``obj._private`` attributes: they reach the simulator's buffers and clocks directly."""
    return [Violation("npu_internals", node.lineno, f"attribute {node.attr!r} reaches simulator internals; "
                      "use the kernel-language APIs (DataCopy, vector instructions, GetValue/SetValue)")
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.endswith("__")]


def internal_names_rule(tree: ast.Module) -> list[Violation]:
    """No simulator classes or functions beyond the kernel language."""
    names = [(node.lineno, node.id) for node in ast.walk(tree) if isinstance(node, ast.Name)]
    names += [(node.lineno, a.name) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
              for a in node.names]
    return [Violation("npu_internals", line, f"{name} is simulator internals, not part of the kernel language")
            for line, name in names if name in INTERNAL_NAMES]


RULES = (private_access_rule, internal_names_rule)
