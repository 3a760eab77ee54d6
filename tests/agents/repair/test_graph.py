from agents.repair.graph import submitted, why_ended


def tool(name, content):
    return {"role": "tool", "name": name, "content": content, "tool_call_id": "1"}


def test_the_loop_ends_on_submit_cancel_or_out_of_turns():
    assistant = {"role": "assistant", "content": None}
    assert why_ended({"messages": [assistant, tool("submit", "submitted: ok")]}, 10) == "submitted"
    assert why_ended({"messages": [assistant, tool("submit", "not run: the user rejected this call")]}, 10) is None
    assert why_ended({"messages": [assistant, tool("read_file", "x")]}, 1) == "out of turns"
    assert why_ended({"messages": [assistant], "cancelled": True}, 10) == "cancelled"
    assert not submitted({"messages": [tool("submit", "submitted: x"), assistant, tool("read_file", "y")]})
