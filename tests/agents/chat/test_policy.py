"""Approval modes: declared effects by default, config overrides, --yes only for sandboxed tools."""

from __future__ import annotations

from pydantic import BaseModel

from tools.base import Tool

from agents.chat.config import ChatConfig
from agents.chat.policy import ApprovalPolicy


class NoArgs(BaseModel):
    pass


def tool(name, **flags):
    return Tool(name, name, NoArgs, lambda _a: None, **flags)


def test_default_modes_follow_declared_effects():
    policy = ApprovalPolicy(ChatConfig())
    assert policy.mode(tool("read")) == "auto"
    assert policy.mode(tool("run", executes_code=True)) == "ask"
    assert policy.mode(tool("write", writes_files=True)) == "ask"
    assert policy.mode(None) == "deny"
    assert policy.reason(tool("write", writes_files=True)) == "writes files on this machine"


def test_yes_approves_sandboxed_tools_only_and_config_wins():
    boxed = tool("boxed", executes_code=True, tags=("sandboxed",))
    host = tool("host", writes_files=True)
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(boxed) == "auto"
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(host) == "ask"
    assert ApprovalPolicy(ChatConfig(yes=True, policy={"boxed": "deny"})).mode(boxed) == "deny"
    configured = ApprovalPolicy(ChatConfig(policy={"read": "ask"}))
    assert configured.mode(tool("read")) == "ask" and configured.reason(tool("read")) == "the chat policy asks for it"
