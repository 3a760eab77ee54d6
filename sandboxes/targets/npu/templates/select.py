"""The one template operator that computes a whole reference program, or why there is none.

First the operator graph (``recognize``): one operator, or several that ``fusion`` joins into one.
Where that fails, whole-graph patterns read the traced program as one operator: a normalisation
spelled out in torch ops (``patterns``), or an element-wise expression (``expression``), with or
without a full reduction or a loss at its end.
"""

from __future__ import annotations

import torch

from sandboxes.targets.npu.templates.expression import NotAnExpression, compile_expression
from sandboxes.targets.npu.templates.fusion import fuse
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.patterns import (diagonal_pattern, frobenius_pattern, hinge_pattern, l1_pattern,
                                                       rms_pattern, scan_pattern)
from sandboxes.targets.npu.templates.recognize import Graph, recognise, traced


def single_operator(model: torch.nn.Module, inputs: list) -> OpSpec | str:
    """The template operator computing ``model`` on ``inputs`` (shapes only: meta tensors will do)."""
    graph = recognise(model, inputs)
    if not graph.unsupported:
        if len(graph.ops) == 1:
            return graph.ops[0][1]
        fused = fuse(graph)
        if fused is not None:
            return fused
    gm = traced(model, inputs)
    if isinstance(gm, str):
        return gm
    for pattern in WHOLE_GRAPH:
        spec = pattern(gm)
        if spec is not None:
            return spec
    return graph.unsupported or f"{len(graph.ops)} operators that no single template (or fusion of them) covers"


def operator_graph(model: torch.nn.Module, inputs: list) -> Graph:
    """The operator graph; when it has no templates, the whole-graph operator as a one-node graph."""
    graph = recognise(model, inputs)
    if not graph.unsupported:
        return graph
    spec = single_operator(model, inputs)
    return graph if isinstance(spec, str) else Graph(ops=[("v0", spec)], output="v0")


def expression_operator(gm: torch.fx.GraphModule) -> OpSpec | None:
    """An element-wise expression as one elementwise operator, or with its reduction as one full_reduce."""
    try:
        compiled = compile_expression(gm)
    except NotAnExpression:
        return None
    name = f"expression_{compiled.reduce}" if compiled.reduce else "expression"
    if compiled.reduce:
        if compiled.scalar is not None:
            return None
        return OpSpec(name, "full_reduce", compiled.tensors, {"code": compiled.code, "reduce": compiled.reduce})
    attrs = {"code": compiled.code} | ({"scalar": compiled.scalar} if compiled.scalar else {})
    return OpSpec(name, "elementwise", compiled.tensors, attrs)


WHOLE_GRAPH = (rms_pattern, l1_pattern, frobenius_pattern, scan_pattern, diagonal_pattern, hinge_pattern,
               expression_operator)
"""Whole-graph patterns, tried in order."""
