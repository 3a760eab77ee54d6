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


def test_approval_flags():
    assert not make_tool().needs_approval
    assert make_tool(executes_code=True).needs_approval
    assert make_tool(writes_files=True).needs_approval


def test_render_result_caps_length():
    text = render_result("y" * 100, limit=10)
    assert text.startswith("y" * 10) and "90 characters truncated" in text
    assert render_result({"a": 1}) == '{\n "a": 1\n}'
