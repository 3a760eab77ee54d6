"""The MCP server in-process with the SDK's client: tools with their schemas, refusals as tool errors, runs as
resources."""

import asyncio
import json

from mcp import Client

from agents.mcp.config import McpConfig
from agents.mcp.server import build_server
from agents.mcp.toolset import served_tools
from agents.runtime.run import Run


def served(workdir):
    return served_tools(McpConfig(tools=["kernels"], workdir=str(workdir)))


def session(server, steps):
    async def main():
        async with Client(server) as client:
            return await steps(client)
    return asyncio.run(main())


def test_tools_are_listed_with_their_argument_schemas_and_hints(workdir):
    tools = served(workdir)

    async def steps(client):
        return (await client.list_tools()).tools

    listed = {tool.name: tool for tool in session(build_server(tools), steps)}
    assert set(listed) == set(tools)
    check = listed["kernel_check"]
    assert check.input_schema["required"] == ["task", "source"]
    assert check.input_schema["properties"]["target"]["enum"] == ["cpu", "gpu", "npu"]
    assert check.annotations.read_only_hint is False and listed["kernel_show_task"].annotations.read_only_hint


def test_host_files_only_inside_the_allowed_paths_and_errors_are_tool_errors(workdir):
    async def steps(client):
        inside = await client.call_tool("kernel_show_task", {"task": "small_relu.py"})
        outside = [await client.call_tool("kernel_show_task", {"task": path})
                   for path in ("../secret.txt", str(workdir.parent / "secret.txt"), "/etc/passwd")]
        bad = await client.call_tool("kernel_check", {"task": "L1/relu"})
        missing = await client.call_tool("shell_exec", {"command": "cat /etc/passwd"})
        return inside, outside, bad, missing

    inside, outside, bad, missing = session(build_server(served(workdir)), steps)
    assert not inside.is_error and "dim = 4096" in inside.content[0].text
    for answer in outside:
        assert answer.is_error and "may only read files under" in answer.content[0].text
        assert "top secret" not in answer.content[0].text and "root:" not in answer.content[0].text
    assert bad.is_error and "source" in bad.content[0].text
    assert missing.is_error and "no tool named 'shell_exec' is served" in missing.content[0].text


def test_runs_are_resources(workdir, isolated_agent_env):
    run = Run.create("demo", {"question": "1+1"})
    run.emit("best", value=2)
    run.set_status("finished")

    async def steps(client):
        listed = (await client.list_resources()).resources
        summary = await client.read_resource(f"agentkiln://runs/{run.id}")
        events = await client.read_resource(f"agentkiln://runs/{run.id}/events")
        return listed, summary, events

    listed, summary, events = session(build_server({}, isolated_agent_env / "runs"), steps)
    assert [str(r.uri) for r in listed] == [f"agentkiln://runs/{run.id}"] and "demo run, finished" in listed[0].description
    data = json.loads(summary.contents[0].text)
    assert data["id"] == run.id and data["best"] == 2 and data["status"] == "finished"
    assert [e["kind"] for e in json.loads(events.contents[0].text)] == ["best"]


def test_a_huge_result_goes_out_as_capped_text_only():
    from types import SimpleNamespace

    from agents.mcp.server import STRUCTURED_LIMIT, call

    small = call(SimpleNamespace(invoke=lambda arguments: {"nodes": ["a"]}), "t", {})
    huge = call(SimpleNamespace(invoke=lambda arguments: {"nodes": ["x" * 100] * (STRUCTURED_LIMIT // 50)}), "t", {})
    assert small.structured_content == {"nodes": ["a"]}
    assert huge.structured_content is None and "characters truncated" in huge.content[0].text
    assert len(huge.content[0].text) < 25_000
