"""Gold locations of an instance: the files, modules and functions its gold patch edits.

Files come from the patch itself. Modules (top-level classes and functions) and functions
(``Class.method`` or a top-level function) come from mapping the touched lines onto the code at
the base commit. Without access to that code, an instance's own ``gt_file_changes`` (LocAgent's
format) supplies them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable

from benchmarks.repo.patch import edited_files, parse_patch

LEVELS = ("file", "module", "function")
SourceReader = Callable[[str], "str | None"]


@dataclass
class Gold:
    files: list[str] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    source: str = "patch"
    """Where module and function gold came from: ``patch`` (code at base) or ``gt_file_changes``."""

    def level(self, name: str) -> list[str]:
        return {"file": self.files, "module": self.modules, "function": self.functions}[name]


def outline(source: str) -> list[tuple[str, int, int, bool]]:
    """``(qualname, start, end, is_function)`` for every class and def, outermost first."""
    found: list[tuple[str, int, int, bool]] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                found.append((prefix + node.name, start, node.end_lineno or start,
                              not isinstance(node, ast.ClassDef)))
                visit(node.body, prefix + node.name + ".")

    visit(ast.parse(source).body, "")
    return found


def entities_at(source: str, lines: set[int]) -> tuple[list[str], list[str]]:
    """Module and function qualnames that enclose any of ``lines``."""
    modules: list[str] = []
    functions: list[str] = []
    spans = outline(source)
    for line in sorted(lines):
        enclosing = [(q, is_fn) for q, s, e, is_fn in spans if s <= line <= e]
        if not enclosing:
            continue
        _append(modules, enclosing[0][0])
        function_name = next((q for q, is_fn in enclosing if is_fn), enclosing[-1][0])
        _append(functions, function_name)
    return modules, functions


def _append(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def gold_from_patch(patch: str, read_source: SourceReader | None) -> Gold | None:
    """Gold from the patch and the code at base; ``None`` when some edited file cannot be read."""
    gold = Gold()
    for edit in parse_patch(patch):
        if not edit.old_path:
            continue
        _append(gold.files, edit.old_path)
        if not edit.old_path.endswith(".py"):
            continue
        source = read_source(edit.old_path) if read_source else None
        if source is None:
            return None
        try:
            modules, functions = entities_at(source, edit.touched)
        except SyntaxError:
            continue
        for name in modules:
            _append(gold.modules, f"{edit.old_path}:{name}")
        for name in functions:
            _append(gold.functions, f"{edit.old_path}:{name}")
    return gold


def gold_from_changes(patch: str, changes: list[dict]) -> Gold:
    """Files from the patch; modules and functions from LocAgent's ``gt_file_changes``."""
    gold = Gold(files=edited_files(patch), source="gt_file_changes")
    for change in changes:
        for name in change.get("changes", {}).get("edited_modules", []):
            _append(gold.modules, name)
        for name in change.get("changes", {}).get("edited_entities", []):
            _append(gold.functions, name)
    return gold


def gold_for(patch: str, read_source: SourceReader | None, changes: list[dict] | None) -> Gold:
    """The best gold available: derived from code at base, else ``gt_file_changes``, else files only."""
    derived = gold_from_patch(patch, read_source)
    if derived is not None:
        return derived
    if changes is not None:
        return gold_from_changes(patch, changes)
    files_only = gold_from_patch(patch, lambda _path: "")
    files_only.modules, files_only.functions, files_only.source = [], [], "files only (no code at base)"
    return files_only
