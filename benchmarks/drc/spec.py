"""The rule-spec format (the paper's task fields) and labelled layouts."""

from __future__ import annotations

import base64
import zlib

from pydantic import BaseModel, Field


class LayerSpec(BaseModel):
    """One drawn layer of the process stack."""

    name: str
    layer: int
    datatype: int


class RuleSpec(BaseModel):
    """One checked rule; its category name is what the deck must report."""

    category: str
    description: str


class TaskSpec(BaseModel):
    """A DRC task: natural-language rules over named layers, and the gold deck."""

    id: str
    title: str
    description: str
    layers: list[LayerSpec]
    rules: list[RuleSpec]
    gold_deck: str
    family: str = ""

    @property
    def categories(self) -> list[str]:
        return [rule.category for rule in self.rules]

    def layer_names(self) -> dict[tuple[int, int], str]:
        return {(layer.layer, layer.datatype): layer.name for layer in self.layers}


class LabelledLayout(BaseModel):
    """A test layout with the expected verdict per category (True = the category is violated)."""

    name: str
    labels: dict[str, bool]
    note: str = ""
    gds_z: str = Field(description="GDS bytes, zlib-compressed, base64")

    @classmethod
    def from_gds(cls, name: str, gds: bytes, labels: dict[str, bool], note: str = "") -> "LabelledLayout":
        return cls(name=name, labels=labels, note=note, gds_z=base64.b64encode(zlib.compress(gds, 9)).decode())

    @property
    def gds(self) -> bytes:
        return zlib.decompress(base64.b64decode(self.gds_z))


class DrcTask(BaseModel):
    """A task with its labelled layouts."""

    spec: TaskSpec
    layouts: list[LabelledLayout]
