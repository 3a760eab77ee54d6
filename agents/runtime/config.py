"""Fill pydantic ``Config`` models from CLI flags > ``AGENT_*`` environment > ``agentkiln.toml`` > defaults."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any, Mapping, TypeVar

from pydantic import BaseModel, ValidationError

from sandboxes.errors import UserError

CONFIG_ENV = "AGENT_CONFIG"
DEFAULT_CONFIG_FILE = "agentkiln.toml"

M = TypeVar("M", bound=BaseModel)


def config_file() -> Path | None:
    """``$AGENT_CONFIG`` (which must exist), else ``./agentkiln.toml`` when present, else None."""
    named = os.environ.get(CONFIG_ENV)
    if named:
        if not Path(named).is_file():
            raise UserError(f"config file not found: {named} (from ${CONFIG_ENV})")
        return Path(named)
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.is_file() else None


def read_config_file(path: Path | None = None) -> dict[str, Any]:
    """The parsed TOML config file (empty when there is none); malformed TOML is a one-line UserError."""
    path = path or config_file()
    if path is None:
        return {}
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"malformed config file {path}: {error}") from None
    except OSError as error:
        raise UserError(f"cannot read config file {path}: {error.strerror}") from None


def file_section(section: str) -> dict[str, Any]:
    """The ``[section]`` table of the config file."""
    value = read_config_file().get(section, {})
    if not isinstance(value, dict):
        raise UserError(f"config file: '{section}' must be a table ([{section}]), not a {type(value).__name__}")
    return value


def env_name(prefix: str, field: str) -> str:
    return f"{prefix}{field.upper()}"


def env_values(model: type[BaseModel], prefix: str, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Values of ``model``'s fields from ``{prefix}{FIELD}`` variables (JSON for lists and tables)."""
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for field in model.model_fields:
        raw = environ.get(env_name(prefix, field))
        if raw is not None:
            values[field] = _parse_env(raw)
    return values


def _parse_env(raw: str) -> Any:
    if raw[:1] in "[{":
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    return raw


def load_config(model: type[M], section: str, flags: Mapping[str, Any] | None = None,
                env_prefix: str | None = None) -> M:
    """Build ``model`` from flags (None = not given) over ``AGENT_<SECTION>_*`` over ``[section]`` over defaults."""
    prefix = env_prefix if env_prefix is not None else f"AGENT_{section.upper()}_"
    layers = [("config file", file_section(section)), ("environment", env_values(model, prefix)),
              ("flag", {k: v for k, v in (flags or {}).items() if v is not None})]
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for source, layer in layers:
        values.update(layer)
        sources.update({key: source for key in layer})
    try:
        return model.model_validate(values)
    except ValidationError as error:
        raise UserError(_explain(error, model, section, prefix, sources)) from None


def _explain(error: ValidationError, model: type[BaseModel], section: str, prefix: str,
             sources: dict[str, str]) -> str:
    """One line naming the first bad setting and where it came from."""
    first = error.errors()[0]
    key = str(first["loc"][0]) if first["loc"] else "?"
    source = sources.get(key, "default")
    flag = f"--{key.replace('_', '-')}" if len(first["loc"]) < 2 else "a flag"  # nested: --shape-scale sets shapes
    where = {"environment": env_name(prefix, key), "config file": f"[{section}] in the config file",
             "flag": flag}.get(source, source)
    if first["type"] == "extra_forbidden":
        return f"unknown setting '{key}' ({where}); known: {', '.join(model.model_fields)}"
    path = ".".join(str(part) for part in first["loc"]) or key
    return f"invalid setting {section}.{path} ({where}): {first['msg']}"
