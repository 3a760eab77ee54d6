"""Collect every typed Tool in the ``tools`` package, so new tool modules appear without editing their users.

Each module under ``tools/`` is imported guardedly. A module contributes its module-level ``Tool``
objects, lists or tuples of them, and the tools returned by its ``make_*tools`` factories that need no
arguments; a factory with a ``paths`` parameter gets the session's :class:`tools.hostpaths.HostPaths`.
Factories that need other arguments (e.g. ``rpg_tools(workspace)``) are bound by their users.
A module that fails to import is reported in :attr:`Toolbox.unavailable`, never fatal.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Iterable

import tools
from sandboxes.errors import UserError
from tools.base import Tool
from tools.hostpaths import HostPaths

SKIPPED_MODULES = {"tools.base", "tools.registry", "tools.hostpaths"}
GROUP_ORDER = ("sandbox", "kernels", "rpg", "drc", "ahd", "numerics")


@dataclass
class Toolbox:
    """Tools by name, plus the modules that could not contribute and why."""

    tools: dict[str, Tool] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)

    def add(self, tool: Tool) -> None:
        self.tools.setdefault(tool.name, tool)

    def extend(self, more: Iterable[Tool]) -> None:
        for tool in more:
            self.add(tool)

    def groups(self) -> dict[str, list[Tool]]:
        """Tools grouped, known groups first in their usual order."""
        grouped: dict[str, list[Tool]] = {}
        for tool in sorted(self.tools.values(), key=lambda t: (_group_rank(t.group), t.group, t.name)):
            grouped.setdefault(tool.group, []).append(tool)
        return grouped

    def schemas(self) -> list[dict[str, Any]]:
        return [tool.openai_schema() for tool in self.tools.values()]


def _group_rank(group: str) -> int:
    return GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER)


def tool_module_names(packages: Iterable[str] | None = None) -> list[str]:
    """Dotted names of the modules in the ``tools`` package (sorted, registry and base excluded).

    ``packages`` keeps only modules under those subpackages (``sandbox`` → ``tools.sandbox.*``), so a
    caller can skip importing heavy ones.
    """
    names = [info.name for info in pkgutil.walk_packages(tools.__path__, prefix="tools.")]
    wanted = None if packages is None else {f"tools.{package}" for package in packages}
    known = {".".join(name.split(".")[:2]) for name in names if name not in SKIPPED_MODULES}
    unknown = sorted((wanted or set()) - known)
    if unknown:
        raise UserError(f"no tool package {', '.join(u.removeprefix('tools.') for u in unknown)} (choose from "
                        f"{', '.join(sorted(k.removeprefix('tools.') for k in known))})")
    return sorted(name for name in names if name not in SKIPPED_MODULES
                  and (wanted is None or ".".join(name.split(".")[:2]) in wanted))


def tools_of_module(module: ModuleType, paths: HostPaths | None = None) -> list[Tool]:
    """Tools a module defines: Tool objects, collections of them, and zero-argument ``make_*tools`` factories
    (given ``paths`` when they take it)."""
    found: list[Tool] = []
    for name, value in vars(module).items():
        if isinstance(value, Tool):
            found.append(value)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Tool) for v in value):
            found.extend(value)
        elif _is_factory(module, name, value):
            takes_paths = "paths" in inspect.signature(value).parameters
            found.extend(value(paths=paths) if takes_paths and paths is not None else value())
    return found


def _is_factory(module: ModuleType, name: str, value: Any) -> bool:
    if not (inspect.isfunction(value) and name.startswith("make_") and name.endswith("tools")):
        return False
    if value.__module__ != module.__name__:
        return False  # re-exported by a package __init__: collected from its own module
    parameters = inspect.signature(value).parameters.values()
    return all(p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in parameters)


def collect_tools(packages: Iterable[str] | None = None, paths: HostPaths | None = None) -> Toolbox:
    """Import each module (of all of ``tools``, or of ``packages``) and gather its tools; failures are recorded.
    ``paths``: which host files the tools may read and write (default: each factory's own, the built-in suites)."""
    toolbox = Toolbox()
    for name in tool_module_names(packages):
        try:
            toolbox.extend(tools_of_module(importlib.import_module(name), paths))
        except Exception as error:  # one broken or uninstalled tool module must not take the others down
            toolbox.unavailable[name] = f"{type(error).__name__}: {error}"
    return toolbox
