"""Targets by name: ``get_target("cpu" | "gpu" | "npu" | "ascendc")``, imported only when asked for."""

from __future__ import annotations

import importlib

from sandboxes.errors import UserError
from sandboxes.targets.base import Target

TARGETS = {"cpu": "sandboxes.targets.cpu:CpuTarget", "gpu": "sandboxes.targets.gpu:GpuTarget",
           "npu": "sandboxes.targets.npu.target:NpuTarget", "ascendc": "sandboxes.targets.ascendc.target:AscendcTarget"}
"""Target name -> ``module:class``."""


def get_target(name: str) -> Target:
    """The Target called ``name``; an unknown or uninstalled one is a UserError."""
    if name not in TARGETS:
        raise UserError(f"unknown target {name!r}; choose from {', '.join(TARGETS)}")
    module, _, attribute = TARGETS[name].partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)()
    except (ImportError, AttributeError) as error:
        raise UserError(f"target {name!r} is not available in this installation: {error}") from error
