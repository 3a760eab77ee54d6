"""Approval modes: declared capabilities by default, config overrides, --yes only for sandboxed tools."""

from __future__ import annotations

from pydantic import BaseModel

from tools.base import Tool

from agents.chat.config import ChatConfig
from agents.chat.policy import ApprovalPolicy


class NoArgs(BaseModel):
    pass


def tool(name, **flags):
    return Tool(name, name, NoArgs, lambda _a: None, **flags)


def test_default_modes_follow_declared_capabilities():
    policy = ApprovalPolicy(ChatConfig())
    assert policy.mode(tool("read", capabilities=("read_files",))) == "auto"
    assert policy.mode(tool("run", capabilities=("sandbox",))) == "ask"
    assert policy.mode(tool("write", capabilities=("write_files",))) == "ask"
    assert policy.mode(None) == "deny"
    assert policy.reason(tool("write", capabilities=("write_files",))) == \
        "writes files on this machine (only inside the work directory)"


def test_a_tool_that_declares_nothing_asks_even_with_yes():
    undeclared = tool("new_tool")
    assert ApprovalPolicy(ChatConfig()).mode(undeclared) == "ask"
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(undeclared) == "ask"
    assert ApprovalPolicy(ChatConfig()).reason(undeclared) == "declares no capabilities"


def test_yes_approves_sandboxed_tools_only_and_config_wins():
    boxed = tool("boxed", capabilities=("sandbox", "read_files"))
    host = tool("host", capabilities=("write_files",))
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(boxed) == "auto"
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(host) == "ask"
    assert ApprovalPolicy(ChatConfig(yes=True, policy={"boxed": "deny"})).mode(boxed) == "deny"
    read = tool("read", capabilities=("compute",))
    configured = ApprovalPolicy(ChatConfig(policy={"read": "ask"}))
    assert configured.mode(read) == "ask" and configured.reason(read) == "the chat policy asks for it"


def test_the_tools_that_run_without_asking_against_their_capabilities_are_named():
    run, read = tool("run", capabilities=("sandbox",)), tool("read", capabilities=("read_files",))
    write = tool("write", capabilities=("write_files",))
    assert ApprovalPolicy(ChatConfig()).relaxed([run, read, write]) == []
    assert ApprovalPolicy(ChatConfig(yes=True)).relaxed([run, read, write]) == ["run"]
    assert ApprovalPolicy(ChatConfig(policy={"write": "auto"})).relaxed([run, read, write]) == ["write"]
