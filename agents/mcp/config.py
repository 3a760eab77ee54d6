"""Settings of `agent mcp` ([mcp] in agentkiln.toml, ``AGENT_MCP_*`` in the environment)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sandboxes.settings import Config


class McpConfig(Config):
    """Which tools `agent mcp` serves, where they may touch host files, and how it listens."""

    transport: Literal["stdio", "http"] = "stdio"
    """stdio (the client starts `agent mcp` itself) or http (streamable HTTP on host:port, path /mcp)."""
    host: str = "127.0.0.1"
    """Address the http transport binds; any other than loopback needs the bearer token printed at start-up."""
    port: int = Field(8765, ge=0, le=65535)
    """Port of the http transport (0: any free port, printed at start-up)."""
    allow: list[str] = Field(default_factory=list)
    """Tools (names or groups) to serve besides the default set: the sandboxed and the read-only tools."""
    deny: list[str] = Field(default_factory=list)
    """Tools (names or groups) never to serve; wins over allow."""
    tools: list[str] = Field(default_factory=list)
    """Tool packages to load (sandbox, kernels, drc, ahd, numerics, ...); empty loads all of them."""
    workdir: str | None = None
    """Host folder whose files the host-side tools may read and write (they may also read the built-in suites, and
    nothing else). None: only the built-in suites can be read, and nothing written."""
    repo: str | None = None
    """Repository to encode into a planning graph for the RPG navigation tools (search_node, fetch_node, ...)."""
    sandbox: str | None = None
    """Sandbox backend for python_exec/shell_exec (docker, local, auto); None = AGENT_SANDBOX or auto."""
    runs_limit: int = Field(50, ge=0)
    """How many of the newest runs are listed as MCP resources."""
