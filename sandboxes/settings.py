"""Base class for every component's configuration.

Each component declares a pydantic model derived from :class:`Config`, with a docstring under
every field. Unknown keys are an error. The CLI fills these models from flags, ``AGENT_*``
environment variables and an optional ``agentkiln.toml``.
"""

from pydantic import BaseModel, ConfigDict


class Config(BaseModel):
    """A component configuration: strict keys, field docstrings become descriptions."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, validate_assignment=True)
