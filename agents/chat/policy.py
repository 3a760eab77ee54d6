"""Which tool calls run at once, which pause for the user, and which never run."""

from __future__ import annotations

from tools.base import Tool
from tools.sandbox import SANDBOXED_TAG

from agents.chat.config import ChatConfig, Mode


class ApprovalPolicy:
    """Per-tool modes from the config; defaults follow what a tool declares about itself."""

    def __init__(self, config: ChatConfig):
        self.config = config

    def mode(self, tool: Tool | None) -> Mode:
        """``auto``, ``ask`` or ``deny`` for a call of ``tool`` (an unknown tool is denied)."""
        if tool is None:
            return "deny"
        mode = self.config.policy.get(tool.name) or ("ask" if tool.needs_approval else "auto")
        if mode == "ask" and self.config.yes and SANDBOXED_TAG in tool.tags:
            return "auto"
        return mode

    def reason(self, tool: Tool) -> str:
        """Why a call of ``tool`` needs approval, in words."""
        if tool.name in self.config.policy:
            return "the chat policy asks for it"
        effects = [text for flag, text in ((tool.executes_code, "executes code"), (tool.writes_files, "writes files"))
                   if flag]
        where = " in the sandbox" if SANDBOXED_TAG in tool.tags else " on this machine"
        return " and ".join(effects) + where
