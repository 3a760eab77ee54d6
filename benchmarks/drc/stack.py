"""A SKY130-like layer stack: names, GDS numbers and typical limits (µm) used to sample rules."""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.drc.spec import LayerSpec


@dataclass(frozen=True)
class StackLayer:
    """A layer with SKY130-like numbers and rule values (width, space, area in µm²; cut size for vias)."""

    name: str
    layer: int
    datatype: int
    prefix: str
    width: float
    space: float
    area: float = 0.0
    cut: float = 0.0

    def spec(self) -> LayerSpec:
        return LayerSpec(name=self.name, layer=self.layer, datatype=self.datatype)


STACK: dict[str, StackLayer] = {layer.name: layer for layer in [
    StackLayer("nwell", 64, 20, "nwell", 0.84, 1.27),
    StackLayer("diff", 65, 20, "difftap", 0.15, 0.27),
    StackLayer("tap", 65, 44, "tap", 0.15, 0.27),
    StackLayer("poly", 66, 20, "poly", 0.15, 0.21),
    StackLayer("licon1", 66, 44, "licon", 0.17, 0.17, cut=0.17),
    StackLayer("li1", 67, 20, "li", 0.17, 0.17, area=0.0561),
    StackLayer("mcon", 67, 44, "ct", 0.17, 0.19, cut=0.17),
    StackLayer("met1", 68, 20, "m1", 0.14, 0.14, area=0.083),
    StackLayer("via", 68, 44, "via", 0.15, 0.17, cut=0.15),
    StackLayer("met2", 69, 20, "m2", 0.14, 0.14, area=0.0676),
    StackLayer("via2", 69, 44, "via2", 0.2, 0.2, cut=0.2),
    StackLayer("met3", 70, 20, "m3", 0.3, 0.3, area=0.24),
    StackLayer("via3", 70, 44, "via3", 0.2, 0.2, cut=0.2),
    StackLayer("met4", 71, 20, "m4", 0.3, 0.3, area=0.24),
    StackLayer("met5", 72, 20, "m5", 1.6, 1.6, area=4.0),
    StackLayer("psdm", 94, 20, "psd", 0.38, 0.38),
    StackLayer("nsdm", 93, 44, "nsd", 0.38, 0.38),
    StackLayer("boundary", 235, 4, "bnd", 0.0, 0.0),
]}

METALS = ["li1", "met1", "met2", "met3", "met4", "met5"]
"""Routing layers, bottom up."""

CUT_PAIRS = [("li1", "mcon"), ("met1", "mcon"), ("met1", "via"), ("met2", "via"), ("met2", "via2"),
             ("met3", "via2"), ("met3", "via3"), ("met4", "via3")]
"""(metal, cut) pairs where the metal must enclose the cut."""
