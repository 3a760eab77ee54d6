"""Agents register how to execute a run, so that `agent runs resume <id>` can continue any of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from sandboxes.errors import UserError

from benchmarks.report import Report

if TYPE_CHECKING:
    from agents.runtime.models.base import ChatModel
    from agents.runtime.run import Run

Execute = Callable[["Run", Optional["ChatModel"]], Report]

_AGENTS: dict[str, Execute] = {}


def register_agent(name: str, execute: Execute) -> Execute:
    """Make ``execute(run, model)`` the way to run (and resume) agent ``name``.

    Call it when your CLI module is imported (the CLI imports every command module before it
    dispatches), so that a fresh process can resume the agent's runs. Registering again replaces.
    ``execute`` must work for a new and for a resumed run: build the graph and call ``run_graph``.
    """
    _AGENTS[name] = execute
    return execute


def register_lazy(name: str, target: str) -> Execute:
    """Register ``"package.module:function"`` as agent ``name`` without importing it yet.

    CLI modules use this so that loading the CLI does not load LangGraph, torch or KLayout; the
    module is imported on the first run or resume (and may register its own ``execute`` then).
    """
    module_name, _, function_name = target.partition(":")

    def execute(run: "Run", model: Optional["ChatModel"]) -> Report:
        import importlib

        return getattr(importlib.import_module(module_name), function_name)(run, model)

    return register_agent(name, execute)


def get_agent(name: str) -> Execute:
    """The registered ``execute`` of agent ``name``; a clear error when there is none."""
    try:
        return _AGENTS[name]
    except KeyError:
        known = ", ".join(sorted(_AGENTS)) or "none"
        raise UserError(f"no agent named '{name}' is registered (known: {known})") from None


def registered_agents() -> list[str]:
    return sorted(_AGENTS)
