"""The MCP server: each served tool as an MCP tool (its pydantic argument schema as the input schema), runs as
resources; served over stdio or streamable HTTP with the official ``mcp`` SDK's low-level ``Server``.

A call runs the tool exactly as chat would (``Tool.invoke``: validated arguments, host paths limited by the
session's ``HostPaths``, code only in the sandbox) in a worker thread; a refusal or failure is an MCP tool error
whose text says why, never a crashed server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError
from tools.base import Tool, render_result

from agents.mcp.resources import read_run_resource, run_resources

SERVER_NAME = "agentkiln"
STRUCTURED_LIMIT = 200_000
"""Results whose JSON is longer go out as the capped text only: a 15 MB structured copy of a capped answer is
not something to send."""
INSTALL_HINT = 'the MCP server needs the mcp SDK: pip install "agentkiln[ui]" (or pip install mcp)'


def mcp_tool(tool: Tool) -> Any:
    """The MCP description of ``tool``: name, description, input schema and hints from its capabilities."""
    import mcp_types as types

    schema = tool.args.model_json_schema()
    schema.pop("title", None)
    read_only = tool.approval == "auto"
    return types.Tool(name=tool.name, description=tool.description, input_schema=schema,
                      annotations=types.ToolAnnotations(title=tool.name, read_only_hint=read_only,
                                                        destructive_hint=False, open_world_hint=False))


def call(tool: Tool | None, name: str, arguments: dict[str, Any] | None) -> Any:
    """Run one call and wrap its result (or why it did not run) as an MCP ``CallToolResult``."""
    import mcp_types as types

    if tool is None:
        return _error(f"no tool named {name!r} is served here (see tools/list; --allow adds tools)")
    try:
        result = tool.invoke(arguments or {})
    except UserError as error:
        return _error(f"error: {error}")
    except Exception as error:  # a failing tool is an answer to the client, not the end of the server
        return _error(f"error: {type(error).__name__}: {error}")
    dumped = json.dumps(result, default=str) if isinstance(result, dict) else ""
    structured = json.loads(dumped) if dumped and len(dumped) <= STRUCTURED_LIMIT else None
    return types.CallToolResult(content=[types.TextContent(type="text", text=render_result(result))],
                                structured_content=structured, is_error=False)


def _error(text: str) -> Any:
    import mcp_types as types

    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def build_server(tools: dict[str, Tool], runs_root: str | Path | None = None, runs_limit: int = 50) -> Any:
    """A low-level MCP ``Server`` listing and calling ``tools`` and serving the runs under ``runs_root``."""
    try:
        import anyio
        import mcp_types as types
        from mcp.server.lowlevel import Server
    except ImportError as error:
        raise UserError(f"{INSTALL_HINT} ({error})") from None

    async def list_tools(_ctx: Any, _params: Any) -> Any:
        return types.ListToolsResult(tools=[mcp_tool(tool) for tool in tools.values()])

    async def call_tool(_ctx: Any, params: Any) -> Any:
        return await anyio.to_thread.run_sync(call, tools.get(params.name), params.name, params.arguments)

    async def list_resources(_ctx: Any, _params: Any) -> Any:
        listed = await anyio.to_thread.run_sync(run_resources, runs_root, runs_limit)
        return types.ListResourcesResult(resources=[types.Resource(mime_type="application/json", **item)
                                                    for item in listed])

    async def read_resource(_ctx: Any, params: Any) -> Any:
        text = await anyio.to_thread.run_sync(read_run_resource, str(params.uri), runs_root)
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=str(params.uri), text=text,
                                                                            mime_type="application/json")])

    return Server(SERVER_NAME, version=_version(), instructions=_instructions(tools), on_list_tools=list_tools,
                  on_call_tool=call_tool, on_list_resources=list_resources, on_read_resource=read_resource)


def _instructions(tools: dict[str, Tool]) -> str:
    groups = sorted({tool.group for tool in tools.values()})
    return (f"agentkiln's typed tools ({', '.join(groups)}): code runs only in the sandbox; host files only under the "
            "built-in suites and the server's --workdir. Runs are resources agentkiln://runs/ID.")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agentkiln")
    except PackageNotFoundError:
        return "0"
