"""The one output shape of every `agent run`, `agent bench` and selftest: a summary and rows."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Report:
    """``{"summary": {...}, "rows": [...]}`` with one row per task, instance or case."""

    summary: dict[str, Any] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    title: str = ""
    columns: list[str] | None = None
    """The row keys a terminal table shows, in order (None: all); the report files always hold every key."""

    def to_dict(self) -> dict[str, Any]:
        return {"summary": _jsonable(self.summary), "rows": _jsonable(self.rows)}

    def write_json(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=2, sort_keys=False) + "\n")
        return path

    @classmethod
    def read_json(cls, path: str | Path) -> "Report":
        data = json.loads(Path(path).read_text())
        return cls(summary=data.get("summary", {}), rows=data.get("rows", []))

    def to_markdown(self) -> str:
        """The summary as a key/value list and the rows as a table."""
        lines = [f"# {self.title}", ""] if self.title else []
        lines += [f"- **{key}**: {_fmt(value)}" for key, value in self.summary.items()]
        if self.rows:
            columns = _columns(self.rows)
            lines += ["", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
            lines += ["| " + " | ".join(_fmt(row.get(c)) for c in columns) + " |" for row in self.rows]
        return "\n".join(lines) + "\n"


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    return columns


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4g}"
    if value is None:
        return "—"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _jsonable(value: Any) -> Any:
    """Replace non-finite floats by None so the JSON is strict."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
