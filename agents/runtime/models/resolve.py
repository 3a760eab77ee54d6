"""Pick the model for a run: --model, then AGENT_MODEL, then the config file, then credentials, else offline."""

from __future__ import annotations

import json
import os
from pathlib import Path

from sandboxes.errors import UserError

from agents.runtime.config import file_section, load_config
from agents.runtime.models.base import ChatModel
from agents.runtime.models.providers import check_provider
from agents.runtime.models.scripted import ScriptedModel

# With no model named anywhere, the first provider whose key is set picks its default model.
CREDENTIAL_DEFAULTS = (
    ("OPENAI_API_KEY", "openai/gpt-4o-mini"),
    ("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5"),
    ("GEMINI_API_KEY", "gemini/gemini-2.5-flash"),
    ("GOOGLE_API_KEY", "gemini/gemini-2.5-flash"),
)
OFFLINE_SPECS = ("offline", "none")
NO_MODEL_HELP = ("no model is configured: pass --model provider/name (e.g. openai/gpt-4o-mini), "
                 "set AGENT_MODEL, or set a provider key such as OPENAI_API_KEY")


def choose_spec(spec: str | None) -> tuple[str | None, str]:
    """The model spec to use and where it came from (``flag``, ``AGENT_MODEL``, ``config file``, ``credentials``)."""
    if spec:
        return spec, "flag"
    if os.environ.get("AGENT_MODEL"):
        return os.environ["AGENT_MODEL"], "AGENT_MODEL"
    configured = file_section("run").get("model")
    if configured:
        return str(configured), "config file"
    for variable, default in CREDENTIAL_DEFAULTS:
        if os.environ.get(variable):
            return default, "credentials"
    return None, "none"


def resolve_model(spec: str | None = None, *, api_base: str | None = None,
                  offline_ok: bool = True) -> ChatModel | None:
    """The ChatModel for ``spec`` (see :func:`choose_spec`), or None: "use the agent's offline policy".

    ``replay:FILE`` serves a recording, ``scripted:FILE`` a JSON list of replies, ``offline`` forces the
    offline policy. With ``offline_ok=False`` having no model is a UserError.
    """
    chosen, _source = choose_spec(spec)
    if chosen is None or chosen in OFFLINE_SPECS:
        if offline_ok:
            return None
        raise UserError(NO_MODEL_HELP if chosen is None else f"model '{chosen}' is not allowed here: " + NO_MODEL_HELP)
    return build_model(chosen, api_base)


def build_model(spec: str, api_base: str | None = None) -> ChatModel:
    """Construct the model a spec names (no fallbacks)."""
    if spec.startswith("replay:"):
        from agents.runtime.models.replay import ReplayModel

        return ReplayModel(spec.removeprefix("replay:"))
    if spec.startswith("scripted:"):
        return scripted_from_file(spec.removeprefix("scripted:"))
    check_provider(spec)  # before importing litellm, which takes seconds
    from agents.runtime.models.litellm_model import LiteLLMModel, ModelSettings

    base = api_base or os.environ.get("AGENT_API_BASE") or file_section("run").get("api_base")
    settings = load_config(ModelSettings, "model", {"name": spec, "api_base": base}, env_prefix="AGENT_MODEL_")
    return LiteLLMModel(settings)


def scripted_from_file(path: str) -> ScriptedModel:
    """A ScriptedModel from a JSON list of replies (strings or ``{"tool_calls": [...]}`` objects)."""
    try:
        replies = json.loads(Path(path).read_text())
    except OSError as error:
        raise UserError(f"cannot read scripted replies {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise UserError(f"scripted replies {path} are not JSON: {error}") from None
    if not isinstance(replies, list):
        raise UserError(f"scripted replies {path} must be a JSON list")
    return ScriptedModel(replies, name=f"scripted:{path}")
