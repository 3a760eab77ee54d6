"""Chat threads are runs of the agent ``chat``: one run directory, checkpoints and events per thread."""

from __future__ import annotations

import time
from typing import Any

from sandboxes.errors import UserError

from agents.chat.config import ChatConfig
from agents.runtime.run import Run, list_run_ids

CHAT_AGENT = "chat"


def open_thread(thread_id: str | None, config: ChatConfig, attached_to: str | None = None) -> Run:
    """The thread ``thread_id`` (id, unique prefix or ``last``), or a new one."""
    if thread_id is None:
        run = Run.create(CHAT_AGENT, config)
        if attached_to:
            run.update_meta(attached_to=attached_to)
        return run
    if thread_id == "last":
        ids = thread_ids()
        if not ids:
            raise UserError("there is no chat thread yet (agent chat --list)")
        thread_id = ids[-1]
    run = Run.open(thread_id)
    if run.agent != CHAT_AGENT:
        raise UserError(f"{run.id} is a run of agent {run.agent!r}, not a chat thread; "
                        f"to talk about it use: agent chat --attach {run.id}")
    return run


def thread_ids() -> list[str]:
    ids = []
    for run_id in list_run_ids():
        try:
            if Run.open(run_id).agent == CHAT_AGENT:
                ids.append(run_id)
        except UserError:
            continue
    return ids


def thread_messages(run: Run) -> list[dict[str, Any]]:
    """The messages of a thread's latest checkpoint (none when it has no checkpoint yet)."""
    if not (run.dir / "checkpoints.sqlite").exists():
        return []
    saved = run.checkpointer().get_tuple({"configurable": {"thread_id": run.id}})
    run.close()
    return list(saved.checkpoint["channel_values"].get("messages") or []) if saved else []


def thread_rows() -> list[dict[str, Any]]:
    """One row per thread, oldest first: id, when, model, messages, cost, the first thing the user asked."""
    rows = []
    for run_id in thread_ids():
        run = Run.open(run_id)
        messages = thread_messages(run)
        first = next((m["content"] for m in messages if m.get("role") == "user"), "")
        rows.append({"thread": run.id, "created": time.strftime("%Y-%m-%d %H:%M", time.localtime(run.meta["created"])),
                     "model": run.meta.get("model", ""), "messages": len(messages),
                     "cost_usd": round(run.totals.cost_usd, 6), "first message": str(first)[:60],
                     "attached_to": run.meta.get("attached_to", "")})
    return rows
