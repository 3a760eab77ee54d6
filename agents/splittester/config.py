"""Configuration of a SplitTester run."""

from __future__ import annotations

from sandboxes.settings import Config


class SplitTesterConfig(Config):
    """Synthesis and selection settings ([splittester] in agentkiln.toml)."""

    tasks: str = "builtin:10"
    """builtin, builtin:N (a seeded subset), or comma-separated task ids or families."""
    n: int = 20
    """Candidate decks sampled per task (best-of-N)."""
    rounds: int = 8
    """SplitTester's budget of split rounds per task."""
    representatives: int = 3
    """Decks of the target cluster that a split layout must separate."""
    finalists: int = 3
    """Top clusters whose representatives go to the final judge."""
    test_layouts: int = 6
    """Layouts asked of the model's first test script."""
    script_retries: int = 2
    """Re-asks when a layout script fails, with its error."""
    temperature: float = 0.8
    """Sampling temperature for synthesis."""
    reference: bool = True
    """Include the project's DRC reference digest in the synthesis prompt."""
    seed: int = 0
    """Seed of the random selector, tie-breaks and the offline policy."""
    sandbox: str | None = None
    """Sandbox backend (auto, docker, local); None = $AGENT_SANDBOX or auto."""
