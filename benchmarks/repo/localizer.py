"""The localiser seam and the external-predictions localiser (LocAgent's and SWE-bench's formats)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from benchmarks.repo.checkout import Snapshot
from benchmarks.repo.instances import Instance, read_rows
from benchmarks.repo.patch import edited_files


@dataclass
class Prediction:
    """Ranked locations at each level, plus precise locations and accounting."""

    files: list[str] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    locations: list[dict[str, Any]] = field(default_factory=list)
    """``{"file", "entity", "start", "end"}`` per ranked location, where the localiser knows them."""
    cost_usd: float = 0.0
    tokens: int = 0
    note: str = ""

    def level(self, name: str) -> list[str]:
        return {"file": self.files, "module": self.modules, "function": self.functions}[name]

    @classmethod
    def from_entities(cls, entities: list[str], files: list[str] | None = None, modules: list[str] | None = None,
                      **extra: Any) -> "Prediction":
        """Derive modules (``path:Top``, unless given) and files (given ones first) from ranked
        ``path:Qual.name`` ids."""
        derived_modules = [_module_of(e) for e in entities if ":" in e]
        modules = list(dict.fromkeys((modules or []) + derived_modules))
        derived_files = list(dict.fromkeys(e.split(":", 1)[0] for e in entities))
        files = list(dict.fromkeys((files or []) + derived_files)) if files is not None else derived_files
        functions = list(dict.fromkeys(e for e in entities if ":" in e))
        return cls(files=files, modules=modules, functions=functions, **extra)


def _module_of(entity: str) -> str:
    path, qualname = entity.split(":", 1)
    return f"{path}:{qualname.split('.')[0]}"


class Localizer(Protocol):
    """Anything that ranks locations for an instance.

    When ``needs_checkout`` is set, ``checkout`` is the repository at base_commit (a clone and a
    commit to read git objects from); otherwise it is ``None``.
    """

    name: str
    policy: str
    needs_checkout: bool

    def localize(self, instance: Instance, checkout: Snapshot | None) -> Prediction: ...


class PredictionsFile:
    """Serves predictions read from a file: LocAgent's rows (``found_files``/``found_modules``/
    ``found_entities``), our exports (the same keys), or SWE-bench predictions (``model_patch``)."""

    needs_checkout = False

    def __init__(self, path: str | Path):
        self.name = f"predictions:{path}"
        self.policy = f"external predictions from {Path(path).name}"
        self._rows = {row["instance_id"]: row for row in read_rows(path) if "instance_id" in row}

    def localize(self, instance: Instance, checkout: Snapshot | None) -> Prediction:
        row = self._rows.get(instance.instance_id)
        if row is None:
            return Prediction(note="no prediction for this instance")
        if any(key in row for key in ("found_files", "found_modules", "found_entities")):
            return Prediction(files=list(row.get("found_files") or []), modules=list(row.get("found_modules") or []),
                              functions=list(row.get("found_entities") or []),
                              locations=[x for x in row.get("locations") or [] if isinstance(x, dict)])
        return Prediction(files=edited_files(row.get("model_patch") or ""), note="files from model_patch")
