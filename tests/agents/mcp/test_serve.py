"""`agent mcp` over its real transports, driven by the SDK's own client: stdio (the client starts the server) and
streamable HTTP (a server process on a free port); a bind beyond loopback needs the printed bearer token."""

import asyncio
import os
import re
import subprocess
import sys
import threading

import pytest
from mcp import Client, StdioServerParameters

from tests.agents.mcp.conftest import CHEAT, NPU_RELU, REPO

START_S = 180  # a loaded machine takes a while to import the tools


def server_argv(workdir, *extra):
    return [sys.executable, "-m", "agents.cli.app", "mcp", "--tools", "kernels", "--workdir", str(workdir), *extra]


async def verdict_and_refusal(server, source):
    """List the tools, check ``source`` on the small task, and try to read a file outside the allowed paths."""
    async with Client(server, read_timeout_seconds=600) as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        verdict = await client.call_tool("kernel_check", {"task": "small_relu.py", "source": source, "target": "npu"})
        refused = await client.call_tool("kernel_show_task", {"task": "../secret.txt"})
        return names, verdict, refused


def test_stdio_lists_checks_a_real_solution_and_refuses_an_outside_file(workdir):
    params = StdioServerParameters(command=sys.executable, args=server_argv(workdir)[1:], cwd=str(REPO),
                                   env={**os.environ, "AGENT_SANDBOX": "local"})
    names, verdict, refused = asyncio.run(verdict_and_refusal(params, NPU_RELU.read_text()))
    assert {"kernel_check", "kernel_benchmark", "npu_profile", "kernel_show_task", "kernel_list_tasks"} == set(names)
    assert not verdict.is_error and verdict.structured_content["status"] == "correct", verdict.content[0].text
    assert verdict.structured_content["correct"] is True and verdict.structured_content["simulated"] is True
    assert refused.is_error and "may only read files under" in refused.content[0].text
    assert "top secret" not in refused.content[0].text


@pytest.fixture
def http_server(workdir):
    """``http_server(*flags)`` starts `agent mcp --transport http --port 0 FLAGS` and returns what it printed up to
    its address (and its token, when it binds beyond loopback); its later output is drained in a thread."""
    started = []

    def start(*flags):
        process = subprocess.Popen(server_argv(workdir, "--transport", "http", "--port", "0", *flags),
                                   stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=str(REPO))
        started.append(process)
        wanted = ["streamable HTTP on", *(["Bearer"] if "--host" in flags else [])]
        lines = []
        for line in process.stderr:
            lines.append(line)
            if all(any(word in seen for seen in lines) for word in wanted):
                threading.Thread(target=process.stderr.read, daemon=True).start()
                return "".join(lines)
        raise AssertionError("agent mcp did not start: " + "".join(lines))

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=30)


def address(printed):
    return re.search(r"streamable HTTP on (http://\S+)", printed).group(1)


def test_streamable_http_beyond_loopback_needs_the_token_then_lists_checks_and_refuses(http_server):
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    printed = http_server("--host", "0.0.0.0")
    token = re.search(r"Bearer (\S+)'", printed).group(1)
    url = address(printed).replace("0.0.0.0", "127.0.0.1")
    assert httpx2.post(url, json={}).status_code == 401
    assert httpx2.post(url, json={}, headers={"Authorization": "Bearer wrong"}).status_code == 401

    async def with_token():
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=600) as http:
            return await verdict_and_refusal(streamable_http_client(url, http_client=http), CHEAT.read_text())

    names, verdict, refused = asyncio.run(with_token())
    assert "kernel_check" in names
    assert not verdict.is_error and verdict.structured_content["status"] == "rejected"
    assert verdict.structured_content["correct"] is False and verdict.structured_content["reason"]
    assert refused.is_error and "may only read files under" in refused.content[0].text
