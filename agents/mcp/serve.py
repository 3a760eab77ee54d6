"""Serve an MCP server over stdio or streamable HTTP (``/mcp``); a non-loopback HTTP bind needs a bearer token."""

from __future__ import annotations

import secrets
import socket
import sys
from typing import Any, Awaitable, Callable

from sandboxes.errors import UserError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
MCP_PATH = "/mcp"


def serve_stdio(server: Any) -> None:
    """Answer one client on this process's stdin/stdout until it closes them."""
    import anyio
    from mcp.server.stdio import stdio_server

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def serve_http(server: Any, host: str, port: int, say: Callable[[str], None]) -> None:
    """Streamable HTTP on ``host:port`` (0: a free port); off loopback every request needs ``Authorization: Bearer
    TOKEN`` (the token is printed here)."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=host)
    token = None if host in LOOPBACK else secrets.token_urlsafe(24)
    listener = bind(host, port)
    say(f"agent mcp: streamable HTTP on http://{host}:{listener.getsockname()[1]}{MCP_PATH}")
    if token:
        say(f"agent mcp: send 'Authorization: Bearer {token}' with every request (bound beyond loopback)")
    config = uvicorn.Config(app if token is None else BearerGate(app, token), log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[listener])


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; a port in use is a UserError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        raise UserError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listener.listen(128)
    return listener


class BearerGate:
    """ASGI wrapper refusing HTTP requests without the right bearer token (401), passing everything else."""

    def __init__(self, app: Any, token: str):
        self.app, self.expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        given = dict(scope.get("headers") or []).get(b"authorization", b"")
        if scope["type"] == "http" and not secrets.compare_digest(given, self.expected):
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]})
            await send({"type": "http.response.body", "body": b"bearer token required\n"})
            return
        await self.app(scope, receive, send)


def stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
