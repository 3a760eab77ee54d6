"""The Tool seam: validation, schemas, LangChain export, result rendering."""

import pytest
from pydantic import BaseModel, Field

from sandboxes.errors import UserError
from tools.base import Tool, render_result


class Scale(BaseModel):
    x: float = Field(description="the value")
    factor: int = 2


def make_tool(**flags):
    return Tool("scale", "Multiply x by factor.", Scale, lambda a: a.x * a.factor, **flags)


def test_invoke_validates_dict_and_json():
    tool = make_tool()
    assert tool(x=1.5) == 3.0
    assert tool.invoke('{"x": 2, "factor": 3}') == 6.0


def test_bad_arguments_are_user_errors():
    tool = make_tool()
    with pytest.raises(UserError, match="x"):
        tool.invoke({"factor": 3})
    with pytest.raises(UserError, match="not JSON"):
        tool.invoke("{oops")


def test_openai_schema_and_langchain_export():
    tool = make_tool()
    schema = tool.openai_schema()
    assert schema["function"]["name"] == "scale"
    assert schema["function"]["parameters"]["required"] == ["x"]
    assert tool.as_langchain().invoke({"x": 4}) == 8.0


def test_approval_follows_declared_capabilities_and_undeclared_tools_ask():
    assert make_tool(capabilities=("compute",)).approval == "auto"
    assert make_tool(capabilities=["compute", "read_files"]).approval == "auto"
    assert make_tool(capabilities=("sandbox",)).approval == "ask" and make_tool(capabilities=("sandbox",)).sandboxed
    writes = make_tool(capabilities=("read_files", "write_files"))
    assert writes.approval == "ask" and not writes.sandboxed
    assert writes.effects() == ["writes files on this machine (only inside the work directory)"]
    assert not make_tool(capabilities=("sandbox", "write_files")).sandboxed
    undeclared = make_tool()
    assert undeclared.approval == "ask" and undeclared.needs_approval and not undeclared.sandboxed
    assert undeclared.effects() == ["declares no capabilities"]


def test_unknown_or_empty_capabilities_are_refused():
    with pytest.raises(ValueError, match="unknown \\['host_shell'\\]"):
        make_tool(capabilities=("compute", "host_shell"))
    with pytest.raises(ValueError, match="non-empty"):
        make_tool(capabilities=())


def test_render_result_caps_length():
    text = render_result("y" * 100, limit=10)
    assert text.startswith("y" * 10) and "90 characters truncated" in text
    assert render_result({"a": 1}) == '{\n "a": 1\n}'
