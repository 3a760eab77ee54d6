"""Start the dashboard: bind, print the address and the token, serve until Ctrl-C."""

from __future__ import annotations

import threading
from typing import Callable

from sandboxes.errors import UserError

from agents.mcp.serve import bind
from agents.ui.auth import Access
from agents.ui.config import UiConfig

INSTALL_HINT = 'agent ui needs FastAPI and uvicorn: pip install "agentkiln[ui]"'


def serve(config: UiConfig, say: Callable[[str], None]) -> None:
    """Serve the runs under ``config.root`` on ``config.host:config.port``."""
    try:
        import uvicorn

        from agents.ui.app import create_app
    except ImportError as error:
        raise UserError(f"{INSTALL_HINT} ({error})") from None
    access = Access.for_host(config.host)
    app = create_app(config.root, access, config.poll_s)
    threading.Thread(target=app.state.index.snapshot, name="ui-index-warm-up", daemon=True).start()  # a warm first list
    listener = bind(config.host, config.port)
    port = listener.getsockname()[1]
    shown = "127.0.0.1" if config.host in ("0.0.0.0", "::") else config.host
    url = f"http://{shown}:{port}/"
    say(f"agent ui: runs in {app.state.index.root.resolve()}")
    if access.remote:
        say(f"agent ui: bound beyond loopback: everything needs the token; open {url}?token={access.token}")
    else:
        say(f"agent ui: open {url}")
    say(f"agent ui: actions (pause, resume, guidance, budget) need the token {access.token}")
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off")).run(sockets=[listener])
