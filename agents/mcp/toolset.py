"""Which typed tools `agent mcp` serves: chat's toolbox, the default set being what chat runs without asking when
``--yes`` is given (read-only tools and tools whose effects stay in the sandbox), changed by ``--allow``/``--deny``.

Host files are reachable only through the same :class:`tools.hostpaths.HostPaths` as chat: the built-in suites,
and the ``--workdir`` folder when one is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from sandboxes.errors import UserError
from tools.base import Tool
from tools.registry import Toolbox

from agents.chat.config import ChatConfig
from agents.chat.policy import ApprovalPolicy
from agents.chat.toolset import chat_toolbox
from agents.mcp.config import McpConfig

UNATTENDED = ApprovalPolicy(ChatConfig(yes=True))
"""Chat's approval with ``--yes``: a tool it runs without asking is in the default set."""


def in_default_set(tool: Tool) -> bool:
    """Read-only tools (compute, read_files) and sandboxed ones; not tools that write host files or declare nothing."""
    return UNATTENDED.mode(tool) == "auto"


def served_tools(config: McpConfig) -> dict[str, Tool]:
    """The tools to serve under ``config``, by name."""
    workdir = None
    if config.workdir:
        workdir = Path(config.workdir).expanduser()
        if not workdir.is_dir():
            raise UserError(f"--workdir {config.workdir}: not a directory")
    toolbox = chat_toolbox(ChatConfig(tools=config.tools, sandbox=config.sandbox, repo=config.repo), workdir)
    return select_tools(toolbox, config.allow, config.deny)


def select_tools(toolbox: Toolbox, allow: Iterable[str], deny: Iterable[str]) -> dict[str, Tool]:
    """The default set plus ``allow``, minus ``deny`` (tool names or group names); an unknown name is a UserError."""
    allow, deny = list(allow), list(deny)
    _check_names(toolbox, [*allow, *deny])
    return {name: tool for name, tool in sorted(toolbox.tools.items())
            if (in_default_set(tool) or _matches(tool, allow)) and not _matches(tool, deny)}


def _matches(tool: Tool, names: list[str]) -> bool:
    return tool.name in names or tool.group in names


def _check_names(toolbox: Toolbox, names: list[str]) -> None:
    known = set(toolbox.tools) | {tool.group for tool in toolbox.tools.values()}
    unknown = sorted(set(names) - known)
    if unknown:
        missing = "; ".join(f"{module}: {why}" for module, why in toolbox.unavailable.items())
        raise UserError(f"no tool or tool group named {', '.join(unknown)} (known: {', '.join(sorted(known))})"
                        + (f"; modules that could not load: {missing}" if missing else ""))
