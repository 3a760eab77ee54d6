"""KernelBench files at a size a workstation can run: scaling the module-level size constants.

KernelBench's level-1 inputs have a median of 2 GiB. :func:`scale_task` shrinks a task by rewriting
the module-level integer constants that size the tensors ``get_inputs()`` builds (``batch_size``,
``dim``, the ``32768`` in ``input_shape = (32768,)``), and only those: a constant that only reaches
``get_init_inputs()`` (a kernel size, a stride, the reduced dimension, a group count) is a setting of
the operator, not a size, and keeps its value. A constant that sizes both (``in_channels``,
``features``) is scaled once, so the model and its inputs still agree. Scaled values keep up to 16 of
the original's powers of two (``4096 * 0.1`` becomes 416, a multiple of 16), so aligned shapes stay
aligned and irregular ones (4095, 8205) stay irregular. A constructor-only constant equal to a size
constant (``out_channels`` beside ``in_channels``, both 128) is scaled with it (``size_partners``).

The scaled task is checked on the meta device (``Model(*get_init_inputs())(*get_inputs())`` with no
memory behind the tensors); when it no longer runs, constants shared with ``get_init_inputs()`` keep
their values, and when even that fails the task keeps its shapes. Each task says what happened in
``KernelTask.shapes``.
"""

from __future__ import annotations

import ast
import math
import operator
import types

import torch
from dataclasses import dataclass, replace

from pydantic import Field

from benchmarks.kernels.meta import MetaError, meta_forward, meta_input_bytes, meta_instance, meta_parameter_bytes
from benchmarks.kernels.tasks import KernelTask
from sandboxes.settings import Config

CREATORS = {"rand", "randn", "zeros", "ones", "empty", "full", "randint", "rand_like", "tensor"}
"""torch functions whose positional arguments (or ``size=``) give a tensor's shape in ``get_inputs()``."""
MAX_GRANULE = 16
MIN_PARTNER = 16
SEARCH_STEPS = 24
MIB = 1 << 20
HOST_LIMIT_BYTES = 256 * MIB
"""A task the meta device cannot build (its construction depends on data, e.g. ``nonzero``) is built
for real on the host only when the tensors its file creates are estimated at most this large."""
OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
             ast.Pow: operator.pow}


class ShapeScaling(Config):
    """How KernelBench tasks are shrunk before they run (both unset: tasks keep their shapes)."""

    scale: float | None = Field(None, gt=0, le=1)
    """Multiply every size constant of ``get_inputs()`` by this factor (``--shape-scale 0.1``)."""
    max_input_mb: float | None = Field(None, gt=0)
    """Shrink each task (by one factor for all its size constants) until its inputs fit in this many MiB."""

    @property
    def active(self) -> bool:
        """True when tasks are to be scaled at all."""
        return self.scale is not None or self.max_input_mb is not None


@dataclass(frozen=True)
class Scaled:
    """One task's source after scaling and what changed."""

    source: str
    changes: dict[str, tuple[int, int]]
    """``name`` (or ``name[i]`` inside a tuple constant) -> (old value, new value)."""
    factor: float


def scale_task(task: KernelTask, scaling: ShapeScaling) -> KernelTask:
    """``task`` with its size constants scaled as ``scaling`` asks; ``task.shapes`` says how."""
    if not scaling.active:
        return task
    try:
        before = meta_input_bytes(task.source)
        factor = _factor(task.source, scaling, before)
        if factor >= 1:
            return replace(task, shapes=f"unscaled: inputs {_size(before)} fit")
        scaled = _checked(task.source, factor)
    except MetaError as error:
        return replace(task, shapes=f"unscaled: {error}")
    if scaled is None or not scaled.changes:
        return replace(task, shapes="unscaled: no size constant could be scaled with the model still running")
    after = meta_input_bytes(scaled.source)
    changes = ", ".join(f"{name} {old}->{new}" for name, (old, new) in scaled.changes.items())
    note = f"scaled x{scaled.factor:.3g} ({changes}); inputs {_size(before)} -> {_size(after)}"
    weights = meta_parameter_bytes(scaled.source)
    if weights:  # what an evaluation that runs out of memory may have spent it on
        note += f"; parameters {_size(weights)}"
    return replace(task, source=scaled.source, shapes=note)


def scale_source(source: str, factor: float, skip: frozenset[str] = frozenset()) -> Scaled:
    """The source with every size constant of ``get_inputs()`` (except ``skip``) times ``factor``."""
    tree = ast.parse(source)
    assignments = _module_assignments(tree)
    edits: dict[int, tuple[ast.expr, str]] = {}
    changes: dict[str, tuple[int, int]] = {}
    for name in sorted((size_names(tree) | size_partners(tree)) - skip):
        for node, label in _literal_sizes(assignments[name], name):
            old = _literal_int(node)
            new = scaled_size(old, factor)
            if new != old:
                edits[id(node)] = (node, str(new))  # ``height = width = 128``: one value, one edit
                changes[label] = (old, new)
    return Scaled(_apply(source, list(edits.values())), changes, factor)


def scaled_size(value: int, factor: float) -> int:
    """``value * factor`` rounded to a multiple of the largest power of two (at most 16) that divides
    ``value`` and is not above the scaled value; at least 1."""
    target = value * factor
    granule = min(MAX_GRANULE, value & -value)
    while granule > 1 and granule > target:
        granule //= 2
    return max(1, granule * max(1, math.floor(target / granule + 0.5)))


def size_names(tree: ast.Module) -> set[str]:
    """Module-level constants whose values reach a tensor shape in ``get_inputs()``, followed through
    assignments (``input_shape = (num_classes,)`` names ``input_shape`` and ``num_classes``)."""
    assignments = _module_assignments(tree)
    function = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_inputs"), None)
    if function is None:
        return set()
    local = {t.id: n.value for n in ast.walk(function) if isinstance(n, ast.Assign)
             for t in n.targets if isinstance(t, ast.Name)}
    pending = [name for call in ast.walk(function) if isinstance(call, ast.Call) and _creator(call)
               for expression in _shape_expressions(call) for name in _names(expression)]
    found: set[str] = set()
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        value = local.get(name) if name in local else assignments.get(name)
        if value is None:
            continue
        if name in assignments and name not in local:
            found.add(name)
        pending += _names(value)
    return found


def size_partners(tree: ast.Module) -> set[str]:
    """Constants that only reach ``get_init_inputs()`` but equal a size constant of at least
    MIN_PARTNER (``out_channels = 128`` beside ``in_channels = 128``): sizes as well, scaled alike, so a
    depthwise convolution stays depthwise. Kernel sizes, strides and group counts are smaller."""
    assignments = _module_assignments(tree)
    sizes = {_literal_int(assignments[name]) for name in size_names(tree)} - {None}
    return {name for name in init_names(tree) - size_names(tree)
            if (_literal_int(assignments[name]) or 0) >= MIN_PARTNER and _literal_int(assignments[name]) in sizes}


def init_names(tree: ast.Module) -> set[str]:
    """Module-level names that ``get_init_inputs()`` reads (directly or through other constants)."""
    assignments = _module_assignments(tree)
    function = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_init_inputs"), None)
    pending = _names(function) if function is not None else []
    found: set[str] = set()
    while pending:
        name = pending.pop()
        if name in assignments and name not in found:
            found.add(name)
            pending += _names(assignments[name])
    return found


def host_instance(source: str) -> tuple[torch.nn.Module, list]:
    """The task's model and inputs for the host to read: on the meta device, or, for a task that cannot
    be built there, for real (seeded) when :func:`created_bytes` is within HOST_LIMIT_BYTES."""
    try:
        return meta_instance(source)
    except MetaError as error:
        estimate = created_bytes(source)
        if estimate is None or estimate > HOST_LIMIT_BYTES:
            raise MetaError(f"{error} (and the tensors it creates are too large or unknown to build on the host)") \
                from None
        module = types.ModuleType("host_task")
        try:
            exec(compile(source, "task.py", "exec"), module.__dict__)
            torch.manual_seed(0)
            return module.Model(*module.get_init_inputs()), list(module.get_inputs())
        except Exception:  # a task file is arbitrary Python
            raise error from None


def created_bytes(source: str) -> int | None:
    """An estimate of what the file's tensor creations allocate: every ``torch.rand(...)``-like call
    anywhere in it whose shape the module constants give, at 4 bytes an element; None if there is none."""
    tree = ast.parse(source)
    constants = _constants(tree)
    total, known = 0, False
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _creator(n)):
        sizes = [_arithmetic(e, constants) for e in _shape_expressions(call) if not isinstance(e, ast.Starred)]
        if sizes and all(v is not None for v in sizes):
            total, known = total + 4 * math.prod(sizes), True
    return total if known else None


def _constants(tree: ast.Module) -> dict[str, int]:
    values: dict[str, int] = {}
    for name, value in _module_assignments(tree).items():
        number = _arithmetic(value, values)
        if number is not None:
            values[name] = number
    return values


def _factor(source: str, scaling: ShapeScaling, before: int) -> float:
    """The scale factor: ``scale``, lowered further until the inputs fit in ``max_input_mb``."""
    factor = scaling.scale or 1.0
    if scaling.max_input_mb is None or meta_input_bytes(scale_source(source, factor).source) <= scaling.max_input_mb * MIB:
        return factor
    low, high = 0.0, factor
    for _ in range(SEARCH_STEPS):
        middle = (low + high) / 2
        if meta_input_bytes(scale_source(source, middle).source) <= scaling.max_input_mb * MIB:
            low = middle
        else:
            high = middle
    return low or high / 2 ** SEARCH_STEPS


def _checked(source: str, factor: float) -> Scaled | None:
    """The scaled source if its model still runs on the meta device; else the one that keeps the
    constants ``get_init_inputs()`` shares; else None."""
    tree = ast.parse(source)
    for skip in (frozenset(), frozenset(init_names(tree))):
        scaled = scale_source(source, factor, skip)
        try:
            meta_forward(scaled.source)
        except MetaError:
            continue
        return scaled
    return None


def _module_assignments(tree: ast.Module) -> dict[str, ast.expr]:
    return {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}


def _creator(call: ast.Call) -> bool:
    function = call.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    return name in CREATORS


def _shape_expressions(call: ast.Call) -> list[ast.expr]:
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    positional = call.args[2:] if name == "randint" and len(call.args) >= 3 else call.args
    if name == "full":
        positional = call.args[:1]
    return list(positional) + [k.value for k in call.keywords if k.arg == "size"]


def _names(node: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]


def _literal_sizes(value: ast.expr, name: str) -> list[tuple[ast.expr, str]]:
    """The parts of a constant's value that are integer literal expressions (``4096``, ``2048 * 2``,
    the elements of ``(32768,)``), with their labels; names inside are scaled where they are defined."""
    if isinstance(value, (ast.Tuple, ast.List)):
        return [(element, f"{name}[{i}]") for i, element in enumerate(value.elts) if _literal_int(element) is not None]
    return [(value, name)] if _literal_int(value) is not None else []


def _literal_int(node: ast.expr) -> int | None:
    """The value of an integer expression made of literals only (``2048 * 2``), if it is above 1."""
    if any(isinstance(n, ast.Name) for n in ast.walk(node)):
        return None
    value = _arithmetic(node)
    return value if isinstance(value, int) and value > 1 else None


def _arithmetic(node: ast.expr, names: dict[str, int] | None = None) -> int | None:
    """An integer expression of literals (and of ``names``' values), or None."""
    if isinstance(node, ast.Name):
        return (names or {}).get(node.id)
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, int) and not isinstance(node.value, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        operand = _arithmetic(node.operand, names)
        return None if operand is None else -operand
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left, right = _arithmetic(node.left, names), _arithmetic(node.right, names)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 64):
            return None
        try:
            return OPERATORS[type(node.op)](left, right)
        except (ZeroDivisionError, ValueError):
            return None
    return None


def _apply(source: str, edits: list[tuple[ast.expr, str]]) -> str:
    """Replace each node's source text by its new text (from the end, so offsets stay valid)."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode()))
    data = source.encode()
    for node, text in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset), reverse=True):
        begin = starts[node.lineno - 1] + node.col_offset
        end = starts[node.end_lineno - 1] + node.end_col_offset
        data = data[:begin] + text.encode() + data[end:]
    return data.decode()


def _size(nbytes: int) -> str:
    return f"{nbytes / MIB:.1f} MiB" if nbytes < 1 << 30 else f"{nbytes / (1 << 30):.2f} GiB"
