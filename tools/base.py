"""The Tool seam: a pydantic-typed callable, exportable as an OpenAI function schema and a LangChain tool.

A tool declares its argument model, what it does, and whether it executes code or writes files
(interactive sessions ask for approval before such calls).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from sandboxes.errors import UserError

ArgsT = TypeVar("ArgsT", bound=BaseModel)


@dataclass
class Tool(Generic[ArgsT]):
    """A typed callable. ``func`` receives the validated argument model and returns JSON-able data or text."""

    name: str
    description: str
    args: type[ArgsT]
    func: Callable[[ArgsT], Any]
    group: str = "general"
    executes_code: bool = False
    writes_files: bool = False
    tags: tuple[str, ...] = field(default_factory=tuple)

    @property
    def needs_approval(self) -> bool:
        """Calls that execute code or write files pause for approval in interactive sessions."""
        return self.executes_code or self.writes_files

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
