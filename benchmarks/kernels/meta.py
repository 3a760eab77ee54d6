"""A task's ``get_inputs()`` and ``Model`` on the meta device: shapes and dtypes with no memory behind
them, so the host can size, scale and read a task whose real inputs are many GiB."""

from __future__ import annotations

import types

import torch


class MetaError(Exception):
    """The task cannot be built or run on the meta device (the message says why)."""


def meta_module(source: str) -> types.ModuleType:
    """The task module, executed with the meta device as the default for every tensor it creates."""
    module = types.ModuleType("meta_task")
    try:
        with torch.device("meta"):
            exec(compile(source, "task.py", "exec"), module.__dict__)
    except Exception as error:  # a task file is arbitrary Python
        raise MetaError(f"the task does not load: {type(error).__name__}: {error}") from error
    return module


def meta_instance(source: str) -> tuple[torch.nn.Module, list]:
    """``(Model(*get_init_inputs()), get_inputs())`` with meta tensors throughout."""
    module = meta_module(source)
    try:
        with torch.device("meta"):
            model = module.Model(*module.get_init_inputs())
            inputs = list(module.get_inputs())
    except Exception as error:  # a task file is arbitrary Python
        raise MetaError(f"the task's model or inputs cannot be built: {type(error).__name__}: {error}") from error
    return model, inputs


def meta_input_bytes(source: str) -> int:
    """Bytes of the tensors ``get_inputs()`` returns (nothing is allocated)."""
    module = meta_module(source)
    try:
        with torch.device("meta"):
            inputs = list(module.get_inputs())
    except Exception as error:  # a task file is arbitrary Python
        raise MetaError(f"get_inputs() fails: {type(error).__name__}: {error}") from error
    return sum(x.numel() * x.element_size() for x in inputs if isinstance(x, torch.Tensor))


def meta_parameter_bytes(source: str) -> int:
    """Bytes of the model's parameters and buffers (sizes the constructor alone takes are never scaled)."""
    model, _ = meta_instance(source)
    tensors = [*model.parameters(), *model.buffers()]
    return sum(t.numel() * t.element_size() for t in tensors)


def meta_forward(source: str):
    """The model's output on meta inputs; raises MetaError when the forward pass fails."""
    model, inputs = meta_instance(source)
    try:
        with torch.no_grad(), torch.device("meta"):
            return model(*inputs)
    except Exception as error:  # shape mismatches, meta-unsupported ops
        raise MetaError(f"the forward pass fails: {type(error).__name__}: {error}") from error
