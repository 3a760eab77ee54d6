"""What the memory holds: four kinds of entries, each a text for the model plus searchable metadata."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class EntryKind(str, Enum):
    """The four kinds of memory entries of the method."""

    API = "api_template"
    """A template kernel or API snippet of the target language (retrieved by similarity only)."""
    EXPERIENCE = "experience"
    """A summarised success or failure experience written from verifier feedback."""
    TRACE = "trace"
    """A generation trace: a draft or a refinement with its outcome."""
    PRACTICE = "best_practice"
    """A refinement best practice (what made a kernel faster)."""


@dataclass
class MemoryEntry:
    """One memory item. ``key_text`` is what is embedded; ``text`` is what the model is shown."""

    kind: EntryKind
    text: str
    key_text: str = ""
    task: str = ""
    target: str = ""
    op_family: str = ""
    stage: str = ""
    bottleneck: str = ""
    parent_id: int | None = None
    source_key: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    id: int | None = None

    def __post_init__(self) -> None:
        self.kind = EntryKind(self.kind)
        if not self.key_text:
            self.key_text = self.text

    @property
    def digest(self) -> str:
        """Content identity, so that importing the same entry twice keeps one copy."""
        body = json.dumps([self.kind.value, self.task, self.target, self.stage, self.text], sort_keys=True)
        return hashlib.sha256(body.encode()).hexdigest()[:32]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (used by export)."""
        return {"id": self.id, "kind": self.kind.value, "text": self.text, "key_text": self.key_text,
                "task": self.task, "target": self.target, "op_family": self.op_family, "stage": self.stage,
                "bottleneck": self.bottleneck, "parent_id": self.parent_id, "source_key": self.source_key,
                "meta": self.meta}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "MemoryEntry":
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})
