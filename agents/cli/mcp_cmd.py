"""`agent mcp`: serve the typed tools over the Model Context Protocol (stdio or streamable HTTP)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.groups import app

NamesOption = Optional[list[str]]


@app.command("mcp")
def mcp(
    transport: Annotated[Optional[str], typer.Option("--transport", help="stdio (default) or http.")] = None,
    host: Annotated[Optional[str], typer.Option("--host", help="http: address to bind (default 127.0.0.1; any "
                                                "other needs the bearer token printed at start-up).")] = None,
    port: Annotated[Optional[int], typer.Option("--port", help="http: port (default 8765; 0 = a free one).")] = None,
    allow: Annotated[NamesOption, typer.Option("--allow", help="Also serve this tool or tool group (repeatable); "
                                               "the default set is the sandboxed and the read-only tools.")] = None,
    deny: Annotated[NamesOption, typer.Option("--deny", help="Never serve this tool or tool group (repeatable).")]
    = None,
    tools: Annotated[Optional[str], typer.Option("--tools", help="Comma-separated tool packages to load "
                                                 "(sandbox,kernels,drc,ahd,numerics,...); default all.")] = None,
    workdir: Annotated[Optional[str], typer.Option("--workdir", help="Folder whose files host-side tools may read "
                                                   "and write (besides reading the built-in suites).")] = None,
    repo: Annotated[Optional[str], typer.Option("--repo", help="Repository for the RPG navigation tools.")] = None,
    sandbox: Annotated[Optional[str], typer.Option("--sandbox", help="Sandbox backend: docker, local or auto.")]
    = None,
    root: Annotated[Optional[str], typer.Option("--root", help="Runs folder served as resources "
                                                "(default $AGENT_RUNS_DIR or ./runs).")] = None,
) -> None:
    """Serve the typed tools (kernel check and benchmark, NPU profiler, RPG navigation, DRC, heuristic evaluation,
    numerics) to MCP clients; code runs only in the sandbox."""
    from agents.mcp.config import McpConfig
    from agents.mcp.serve import serve_http, serve_stdio, stderr_line
    from agents.mcp.server import build_server
    from agents.mcp.toolset import served_tools
    from agents.runtime.config import load_config

    flags = {"transport": transport, "host": host, "port": port, "allow": allow or None, "deny": deny or None,
             "workdir": workdir, "repo": repo, "sandbox": sandbox,
             "tools": [t.strip() for t in tools.split(",") if t.strip()] if tools else None}
    config = load_config(McpConfig, "mcp", flags)
    served = served_tools(config)
    server = build_server(served, root, config.runs_limit)
    stderr_line(f"agent mcp: serving {len(served)} tools ({', '.join(served)}) over {config.transport}")
    if config.transport == "stdio":
        serve_stdio(server)
    else:
        serve_http(server, config.host, config.port, stderr_line)
