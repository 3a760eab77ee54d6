"""Settings of the demo agent (cheap to import: the CLI builds them before anything runs)."""

from __future__ import annotations

from pydantic import NonNegativeFloat

from sandboxes.settings import Config


class DemoConfig(Config):
    """Settings of the demo agent ([demo] in agentkiln.toml, ``AGENT_DEMO_*`` in the environment)."""

    question: str = "What is 17 * 23 + 4?"
    """The arithmetic question to answer."""
    step_delay_s: NonNegativeFloat = 0.0
    """Seconds each node waits before working (to watch progress, or to interrupt a run mid-way)."""
