"""The framework-eager baseline: each operator of the reference runs as its own template kernel
(default parameters), with a round trip through global memory between operators, as an eager
framework would run it on the chip."""

from __future__ import annotations

import functools
import hashlib
import sys
import types
from dataclasses import dataclass
from operator import attrgetter

import torch

from sandboxes.targets.npu.chip import ChipConfig
from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.profile import Profile
from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.select import operator_graph


@dataclass
class EagerRun:
    """The baseline's output and profile, or why there is no baseline for this program."""

    output: torch.Tensor | None
    profile: Profile | None
    reason: str = ""


@functools.lru_cache(maxsize=64)
def kernel_module(source: str) -> types.ModuleType:
    name = f"npu_eager_op_{hashlib.sha256(source.encode()).hexdigest()[:12]}"
    module = types.ModuleType(name)
    sys.modules[name] = module  # dataclasses (the tiling struct) look their module up here
    exec(compile(source, "<npu template>", "exec"), module.__dict__)
    return module


def host_function(spec: OpSpec):
    """The template host function (``run_<family>``) computing ``spec`` with default parameters."""
    return getattr(kernel_module(render_kernel(spec)), f"run_{spec.family}")


def run_eager(model: torch.nn.Module, inputs: list, chip: ChipConfig | None = None) -> EagerRun:
    """Run ``model``'s operators one kernel each on the simulated chip."""
    graph = operator_graph(model, inputs)
    if graph.unsupported or not graph.ops:
        return EagerRun(None, None, graph.unsupported or "the reference has no operators")
    forward_args = [n for n in torch.fx.symbolic_trace(model).graph.nodes if n.op == "placeholder"]
    values: dict[str, object] = {str(node.target): value for node, value in zip(forward_args, inputs)}
    try:
        with torch.no_grad(), capture(chip) as launches:
            for name, spec in graph.ops:
                args = [_value(model, values, arg) for arg in spec.args]
                kwargs = _attr_values(model, values, spec)
                values[name] = _call(spec, args, kwargs)
    except Exception as error:  # a template that cannot run these operands: no baseline, not a crash
        return EagerRun(None, None, f"the eager baseline failed: {type(error).__name__}: {error}")
    return EagerRun(values[graph.output], Profile(launches))


def _call(spec: OpSpec, args: list, kwargs: dict):
    run = host_function(spec)
    if spec.family == "norm":
        return run(args[0], kwargs.get("weight"), kwargs.get("bias"))
    if spec.family == "matmul":
        return run(args[0], args[1], transpose_b=spec.attrs.get("transpose_b", False),
                   transpose_a=spec.attrs.get("transpose_a", False), triangle=spec.attrs.get("triangle", ""))
    if spec.attrs.get("scalar"):
        return run(*args, s=kwargs["scalar"])
    return run(*args)


def _value(model, values: dict, expression: str):
    if expression.startswith("self."):
        return attrgetter(expression.removeprefix("self."))(model)
    return values[expression]


def _attr_values(model, values: dict, spec: OpSpec) -> dict:
    return {key: _value(model, values, spec.attrs[key]) for key in ("weight", "bias", "scalar") if key in spec.attrs}
