"""The Tool seam: a pydantic-typed callable, exportable as an OpenAI function schema and a LangChain tool.

A tool declares its argument model, what it does, and its capabilities (:data:`CAPABILITIES`). Whether an
interactive session runs a call at once or asks first follows from those capabilities alone
(:attr:`Tool.approval`); a tool that declares none always asks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from sandboxes.errors import UserError

ArgsT = TypeVar("ArgsT", bound=BaseModel)
CAPABILITIES: dict[str, str] = {
    "compute": "computes in this process from its arguments",
    "read_files": "reads files on this machine (only under the built-in suites and the work directory)",
    "write_files": "writes files on this machine (only inside the work directory)",
    "sandbox": "runs code or writes files inside the sandbox",
}
"""Everything a tool may declare that it does; a call can do nothing else."""
RUNS_AT_ONCE = frozenset({"compute", "read_files"})
"""A tool whose capabilities are all among these runs without asking."""
SANDBOXED = RUNS_AT_ONCE | {"sandbox"}
"""A tool whose capabilities are all among these (and include ``sandbox``) is approved by ``--yes``."""


@dataclass
class Tool(Generic[ArgsT]):
    """A typed callable. ``func`` receives the validated argument model and returns JSON-able data or text."""

    name: str
    description: str
    args: type[ArgsT]
    func: Callable[[ArgsT], Any]
    group: str = "general"
    capabilities: Iterable[str] | None = None
    """What a call can do, names from :data:`CAPABILITIES`; None means undeclared (the tool always asks)."""

    def __post_init__(self) -> None:
        if self.capabilities is not None:
            self.capabilities = frozenset(self.capabilities)
            unknown = sorted(self.capabilities - CAPABILITIES.keys())
            if unknown or not self.capabilities:
                raise ValueError(f"tool {self.name}: capabilities must be a non-empty subset of "
                                 f"{sorted(CAPABILITIES)}; got unknown {unknown}")

    @property
    def approval(self) -> Literal["auto", "ask"]:
        """``auto`` only when the tool declared capabilities and all of them are harmless; else ``ask``."""
        declared = self.capabilities
        return "auto" if declared is not None and declared <= RUNS_AT_ONCE else "ask"

    @property
    def needs_approval(self) -> bool:
        return self.approval == "ask"

    @property
    def sandboxed(self) -> bool:
        """True when whatever needs approval happens inside the sandbox (``--yes`` may approve it)."""
        declared = self.capabilities
        return declared is not None and "sandbox" in declared and declared <= SANDBOXED

    def effects(self) -> list[str]:
        """The capabilities that make it ask, in words."""
        if self.capabilities is None:
            return ["declares no capabilities"]
        return [CAPABILITIES[c] for c in sorted(self.capabilities - RUNS_AT_ONCE)]

    def __call__(self, **kwargs: Any) -> Any:
        return self.invoke(kwargs)

    def invoke(self, arguments: dict[str, Any] | str) -> Any:
        """Validate ``arguments`` (a dict or a JSON string) and run the tool."""
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments or "{}")
            except json.JSONDecodeError as error:
                raise UserError(f"tool {self.name}: arguments are not JSON: {error}") from error
        try:
            parsed = self.args.model_validate(arguments)
        except ValidationError as error:
            raise UserError(f"tool {self.name}: bad arguments: {_first_error(error)}") from error
        return self.func(parsed)

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema for this tool."""
        schema = self.args.model_json_schema()
        schema.pop("title", None)
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": schema}}

    def as_langchain(self) -> Any:
        """This tool as a LangChain ``StructuredTool``."""
        from langchain_core.tools import StructuredTool

        def run(**kwargs: Any) -> Any:
            return self.invoke(kwargs)

        return StructuredTool.from_function(func=run, name=self.name, description=self.description,
                                            args_schema=self.args)


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "arguments"
    return f"{where}: {first.get('msg', 'invalid')}"


def render_result(result: Any, limit: int = 20_000) -> str:
    """A tool result as text for a model, capped at ``limit`` characters."""
    if isinstance(result, BaseModel):
        text = result.model_dump_json(indent=1)
    elif isinstance(result, str):
        text = result
    else:
        text = json.dumps(result, indent=1, default=str)
    return text if len(text) <= limit else text[:limit] + f"\n... [{len(text) - limit} characters truncated]"
