"""Settings of `agent chat` ([chat] in agentkiln.toml, ``AGENT_CHAT_*`` in the environment)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sandboxes.settings import Config

Mode = Literal["ask", "auto", "deny"]


class ChatConfig(Config):
    """How a chat session offers tools and asks for approval."""

    policy: dict[str, Mode] = Field(default_factory=dict)
    """Per-tool approval: tool name -> ask (pause for approval), auto (run at once) or deny (never run).
    Tools not listed ask when they execute code or write files, and run at once otherwise."""
    yes: bool = False
    """Approve calls of sandboxed tools without asking (tools whose policy says ask and that run inside the
    sandbox); explicit deny still wins."""
    tools: list[str] = Field(default_factory=list)
    """Tool packages to load (sandbox, kernels, drc, ahd, numerics, ...); empty loads all of them."""
    repo: str | None = None
    """Repository to encode into a planning graph for the RPG navigation tools (search_node, ...)."""
    workdir: str | None = None
    """Host folder whose files the host-side tools (kernel task files, layouts, model and activation files) may
    read and write; they may also read the built-in suites, and nothing else. None: the thread's own folder
    ``runs/<thread>/work``."""
    sandbox: str | None = None
    """Sandbox backend for python_exec/shell_exec (docker, local, auto); None = AGENT_SANDBOX or auto."""
    result_chars: int = 12_000
    """A tool result longer than this is cut before it goes to the model."""
    max_steps: int = 40
    """Model calls and tool rounds allowed in one turn before the session asks for the next message."""
