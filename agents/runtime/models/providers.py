"""litellm's provider names without importing litellm (the import takes seconds): read from the
``LlmProviders`` enum in its installed source, so an unknown provider is refused at once."""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path

from sandboxes.errors import UserError

UNKNOWN_PROVIDER = ("unknown model provider in '{name}': use provider/model, e.g. openai/gpt-4o-mini, "
                    "anthropic/claude-haiku-4-5, gemini/gemini-2.5-flash, ollama/llama3, hosted_vllm/NAME")


@functools.cache
def litellm_providers() -> frozenset[str]:
    """The provider names litellm knows; empty when its source is not where this looks (then nothing is
    refused here and litellm itself decides)."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    source = Path(list(spec.submodule_search_locations)[0]) / "types" / "utils.py"
    try:
        tree = ast.parse(source.read_text())
    except (OSError, SyntaxError):
        return frozenset()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "LlmProviders":
            return frozenset(item.value.value for item in node.body if isinstance(item, ast.Assign)
                             and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str))
    return frozenset()


def check_provider(name: str) -> None:
    """Refuse ``provider/model`` at once when litellm has no such provider (names without a provider pass:
    litellm infers one, e.g. for ``gpt-4o-mini``)."""
    provider, slash, _ = name.partition("/")
    known = litellm_providers()
    if slash and known and provider not in known:
        raise UserError(UNKNOWN_PROVIDER.format(name=name))
