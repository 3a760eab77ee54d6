"""Per-agent panels of the run page: each module turns one agent's run directory into the data its panel draws."""

from __future__ import annotations

from typing import Any, Callable

from agents.runtime.run import Run

View = Callable[[Run], dict[str, Any]]


def agent_view(run: Run) -> dict[str, Any] | None:
    """The panel data for ``run``'s agent (with ``kind`` naming the panel), or None for agents without one."""
    from agents.ui.views import evokernel, kernels, pathwise, rpg, splittester

    views: dict[str, View] = {"evokernel": evokernel.view, "pathwise": pathwise.view, "rpg": rpg.view,
                              "splittester": splittester.view, "bench-kernels": kernels.view}
    found = views.get(run.agent)
    return {"kind": run.agent, **found(run)} if found else None
