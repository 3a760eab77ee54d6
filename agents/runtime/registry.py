"""Agents register how to execute a run, so that `agent runs resume <id>` can continue any of them."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Callable, Optional

from sandboxes.errors import UserError

from benchmarks.report import Report

if TYPE_CHECKING:
    from agents.runtime.models.base import ChatModel
    from agents.runtime.run import Run

Execute = Callable[["Run", Optional["ChatModel"]], Report]

_AGENTS: dict[str, Execute] = {}


def register_agent(name: str, execute: Execute | str) -> Execute:
    """Make ``execute(run, model)`` the way to run (and resume) agent ``name``; the one way to register.

    ``execute`` is ``"package.module:function"`` (imported on the first run or resume, so that loading
    the CLI does not load LangGraph, torch or KLayout) or the function itself (tests). Call it when
    your CLI module is imported: the CLI imports every command module before it dispatches, so a
    fresh process can resume the agent's runs. Registering again replaces.
    """
    function = _lazy(execute) if isinstance(execute, str) else execute
    _AGENTS[name] = function
    return function


def _lazy(target: str) -> Execute:
    """A function that imports ``"module:function"`` when first called and calls it."""
    module_name, _, function_name = target.partition(":")

    def execute(run: "Run", model: Optional["ChatModel"]) -> Report:
        return getattr(importlib.import_module(module_name), function_name)(run, model)

    execute.__qualname__ = target
    return execute


def get_agent(name: str) -> Execute:
    """The registered ``execute`` of agent ``name``; a clear error when there is none."""
    try:
        return _AGENTS[name]
    except KeyError:
        known = ", ".join(sorted(_AGENTS)) or "none"
        raise UserError(f"no agent named '{name}' is registered (known: {known})") from None


def registered_agents() -> list[str]:
    return sorted(_AGENTS)
