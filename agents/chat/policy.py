"""Which tool calls run at once, which pause for the user, and which never run."""

from __future__ import annotations

from typing import Iterable

from tools.base import Tool

from agents.chat.config import ChatConfig, Mode


class ApprovalPolicy:
    """Per-tool modes from the config; defaults follow the capabilities a tool declares (``Tool.approval``)."""

    def __init__(self, config: ChatConfig):
        self.config = config

    def mode(self, tool: Tool | None) -> Mode:
        """``auto``, ``ask`` or ``deny`` for a call of ``tool`` (an unknown tool is denied)."""
        if tool is None:
            return "deny"
        mode = self.config.policy.get(tool.name) or tool.approval
        if mode == "ask" and self.config.yes and tool.sandboxed:
            return "auto"
        return mode

    def relaxed(self, tools: Iterable[Tool]) -> list[str]:
        """The tools that would ask by what they can do but run at once under this config (its policy, ``yes``)."""
        return sorted(tool.name for tool in tools if tool.approval == "ask" and self.mode(tool) == "auto")

    def reason(self, tool: Tool) -> str:
        """Why a call of ``tool`` needs approval, in words."""
        if tool.name in self.config.policy:
            return "the chat policy asks for it"
        return "; ".join(tool.effects())
