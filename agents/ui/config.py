"""Settings of `agent ui` ([ui] in agentkiln.toml, ``AGENT_UI_*`` in the environment)."""

from __future__ import annotations

from pydantic import Field

from sandboxes.settings import Config


class UiConfig(Config):
    """Where the dashboard reads runs from and where it listens."""

    root: str | None = None
    """Runs folder (None: $AGENT_RUNS_DIR, else ./runs)."""
    host: str = "127.0.0.1"
    """Address to bind. On loopback, reading needs nothing and actions need the token; on any other address
    everything needs the token."""
    port: int = Field(8766, ge=0, le=65535)
    """Port to listen on (0: a free one, printed at start-up)."""
    poll_s: float = Field(0.5, gt=0, le=10)
    """How often live views (runs list, timelines) look for changes, in seconds."""
