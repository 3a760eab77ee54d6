"""Parameterised template kernels: the NPU's operator library and EvoKernel's API templates.

``list_templates()`` gives each family with its source text and parameter space;
``render_kernel(spec, params)`` returns a complete kernel module for one operator;
``render_solution(task_source, spec, params)`` wraps it as a KernelBench ``ModelNew`` solution.
"""

from __future__ import annotations

import ast
import importlib
from dataclasses import dataclass
from string import Template as _Text

import torch

from sandboxes.errors import UserError
from sandboxes.targets.npu.templates.ops import ELEMENTWISE, OpSpec
from sandboxes.targets.npu.templates.src import prelude

VECTOR_SPACE = {"TILE_LENGTH": [1024, 2048, 4096, 8192], "BUFFER_NUM": [1, 2], "BLOCK_DIM": [1, 8, 16, 24, 32, 40, 48]}
TASK_METADATA = {"GPU_SHAPES", "ATOL", "RTOL"}
"""Task-file names that describe the task to the harness, not values the model uses."""
STATELESS_MODULES = ("pooling", "activation", "dropout", "flatten", "padding", "pixelshuffle", "upsampling",
                     "channelshuffle", "distance", "loss")
"""torch.nn submodules whose layers hold no parameters (but for WEIGHTED)."""
WEIGHTED = ("PReLU", "MultiheadAttention")
CUBE_SPACE = {"BASE_M": [64, 128, 256], "BASE_N": [64, 128, 256], "BASE_K": [32, 64, 128], "BUFFER_NUM": [1, 2],
              "BLOCK_DIM": [1, 8, 16, 24]}
TRANSPOSE_SPACE = {"TILE_ROWS": [16, 32, 64, 128], "TILE_COLS": [16, 32, 64, 128], "BUFFER_NUM": [1, 2],
                   "BLOCK_DIM": [1, 8, 16, 24, 32, 40, 48]}
MIXED_SPACE = {"TILE_LENGTH": [1024, 2048, 4096], "BASE_M": [64, 128], "BASE_N": [64, 128, 256],
               "BASE_K": [32, 64, 128], "BUFFER_NUM": [1, 2], "BLOCK_DIM": [8, 16, 24, 48]}
"""Vector kernels and a cube matmul in one operator (conv2d, linear): one tile length, the cube tiles."""
VECTOR_DEFAULTS = {"TILE_LENGTH": 4096, "BUFFER_NUM": 2, "BLOCK_DIM": 48}
STREAM_SPACE = {**VECTOR_SPACE, "PREFETCH": [0, 1]}
"""Vector kernels that load through a ChunkStream: PREFETCH sets when each chunk's MTE2 copy-in is issued."""
FUSION_SPACE = {**VECTOR_SPACE, "FUSE": [0, 1]}
"""Element-wise kernels: FUSE runs fused stages in one launch (1) or one launch per stage (0)."""


@dataclass(frozen=True)
class KernelTemplate:
    """One template family."""

    family: str
    description: str
    ops: tuple[str, ...]
    space: dict[str, list[int]]
    """Each parameter with the values worth trying (the offline policy mutates within these)."""
    defaults: dict[str, int]

    def space_for(self, spec: OpSpec) -> dict[str, list[int]]:
        """The parameters that change the kernel of ``spec``: FUSE only where there are stages to fuse."""
        fused = len(spec.attrs.get("stages", [])) > 1 and "code" not in spec.attrs
        return {k: v for k, v in self.space.items() if k != "FUSE" or fused}

    @property
    def source(self) -> str:
        """The template text: a kernel module with ``${PARAM}`` placeholders."""
        family = importlib.import_module(f"{__name__}.src.{self.family}")
        return prelude.SOURCE + family.SOURCE


TEMPLATES = {
    t.family: t for t in (
        KernelTemplate("elementwise", "element-wise operators, tiled over cores with queue double buffering",
                       tuple(ELEMENTWISE), FUSION_SPACE, {"TILE_LENGTH": 4096, "BUFFER_NUM": 2, "BLOCK_DIM": 48, "FUSE": 1}),
        KernelTemplate("row_reduce", "sum/mean/max/min/argmax over the last dimension, chunked rows",
                       ("sum_rows", "mean_rows", "max_rows", "min_rows", "argmax_rows"), STREAM_SPACE,
                       {"TILE_LENGTH": 8192, "BUFFER_NUM": 2, "BLOCK_DIM": 48, "PREFETCH": 0}),
        KernelTemplate("softmax", "softmax / log-softmax over the last dimension, two passes with online max",
                       ("softmax", "log_softmax"), STREAM_SPACE,
                       {"TILE_LENGTH": 4096, "BUFFER_NUM": 2, "BLOCK_DIM": 48, "PREFETCH": 0}),
        KernelTemplate("norm", "layer norm (over the trailing dimensions; instance norm), RMS norm, L2 and L1 normalisation, two passes; "
                       "an optional residual prologue and fused element-wise stages",
                       ("layer_norm", "rms_norm", "l2_normalize", "l1_normalize"), STREAM_SPACE,
                       {"TILE_LENGTH": 4096, "BUFFER_NUM": 2, "BLOCK_DIM": 48, "PREFETCH": 0}),
        KernelTemplate("matmul", "cube matmul (2-D, batched, A of any rank, transposed A or B, matrix-vector, a triu/tril of the "
                       "product that skips the zeroed tiles) with Nd2Nz tiles",
                       ("matmul",), CUBE_SPACE, {"BASE_M": 128, "BASE_N": 128, "BASE_K": 64, "BUFFER_NUM": 2,
                                                 "BLOCK_DIM": 24}),
        KernelTemplate("axis_reduce", "sum/mean/max/min/argmax/argmin over a dimension that is not the last, "
                       "and RMS normalisation along it: contiguous slices combined lane by lane",
                       ("sum_axis", "mean_axis", "max_axis", "min_axis", "argmax_axis", "argmin_axis", "rms_axis"),
                       VECTOR_SPACE, {**VECTOR_DEFAULTS, "TILE_LENGTH": 2048}),
        KernelTemplate("scan", "prefix sums over the last dimension (inclusive, exclusive, reversed, of x * mask) "
                       "and prefix products (log domain), CumSum per chunk with a carried total",
                       ("cumsum", "cumprod", "cumsum_reverse", "cumsum_exclusive", "cumsum_masked"), STREAM_SPACE,
                       {**VECTOR_DEFAULTS, "PREFETCH": 0}),
        KernelTemplate("full_reduce", "sum/mean of every element (after fused element-wise stages): per-core "
                       "partial sums, then a one-core combine", ("sum_all", "mean_all"), VECTOR_SPACE,
                       VECTOR_DEFAULTS),
        KernelTemplate("channel", "per-channel affine maps over NCHW planes: batch norm (running or batch statistics), "
                       "group norm (two passes), a matrix's rows scaled (diag(w) @ x), with fused element-wise stages",
                       ("batch_norm", "group_norm", "row_scale", "batch_stats"), VECTOR_SPACE, VECTOR_DEFAULTS),
        KernelTemplate("window", "pooling and depthwise convolution over NCHW planes: bands with halo rows in "
                       "UB, Gather for the window taps", ("avg_pool2d", "max_pool2d", "depthwise_conv2d", "avg_pool1d", "max_pool1d", "depthwise_conv1d"),
                       VECTOR_SPACE, {**VECTOR_DEFAULTS, "TILE_LENGTH": 2048}),
        KernelTemplate("transpose", "materialised transpose of the last two dimensions: strided tile loads, "
                       "Gather through an offset table, strided stores", ("transpose",), TRANSPOSE_SPACE,
                       {"TILE_ROWS": 64, "TILE_COLS": 64, "BUFFER_NUM": 2, "BLOCK_DIM": 48}),
        KernelTemplate("conv2d", "2-D convolution: img2col on the vector cores, a cube matmul per image, "
                       "a per-channel epilogue (bias, fused batch/group norm and stages)", ("conv2d", "conv1d"), MIXED_SPACE,
                       {"TILE_LENGTH": 2048, "BASE_M": 64, "BASE_N": 128, "BASE_K": 64, "BUFFER_NUM": 2,
                        "BLOCK_DIM": 24}),
        KernelTemplate("row_loss", "losses made of one value per row: cross entropy (logsumexp minus the target's "
                       "logit), triplet margin (two row distances), hinge (per-column targets); per-core sums, "
                       "then a one-core mean", ("cross_entropy", "triplet_margin", "hinge"), STREAM_SPACE,
                       {**VECTOR_DEFAULTS, "PREFETCH": 0}),
        KernelTemplate("triangle", "torch.triu / torch.tril of a matrix, row by row: an index compare and a select "
                       "per chunk", ("triu", "tril"), VECTOR_SPACE, VECTOR_DEFAULTS),
        KernelTemplate("attention", "softmax(q @ k^T * scale) @ v: a batched cube matmul with k transposed, the "
                       "softmax kernel scaling each chunk, a second batched matmul", ("attention",), MIXED_SPACE,
                       {"TILE_LENGTH": 2048, "BASE_M": 128, "BASE_N": 128, "BASE_K": 64, "BUFFER_NUM": 2,
                        "BLOCK_DIM": 24}),
        KernelTemplate("global_norm", "x divided by its Frobenius norm: the sum of squares (per-core partials, a "
                       "one-core combine), then a scaling pass that reads it from GM", ("frobenius_normalize",),
                       VECTOR_SPACE, VECTOR_DEFAULTS),
        KernelTemplate("separable", "depthwise-separable convolution: the depthwise window kernel, then the 1x1 "
                       "convolution as a cube matmul per image", ("depthwise_separable",), MIXED_SPACE,
                       {"TILE_LENGTH": 2048, "BASE_M": 64, "BASE_N": 128, "BASE_K": 64, "BUFFER_NUM": 2,
                        "BLOCK_DIM": 24}),
        KernelTemplate("epilogue", "a bias broadcast over the rows plus fused element-wise stages, one UB pass",
                       ("bias_add",), VECTOR_SPACE, VECTOR_DEFAULTS),
        KernelTemplate("linear", "nn.Linear: a cube matmul with transposed weight, then the bias and fused "
                       "element-wise stages as one vector epilogue", ("linear",), MIXED_SPACE,
                       {"TILE_LENGTH": 4096, "BASE_M": 128, "BASE_N": 128, "BASE_K": 64, "BUFFER_NUM": 2,
                        "BLOCK_DIM": 24}),
    )
}


def list_templates() -> list[dict]:
    """Every family as a plain dict: family, description, ops, parameter space, defaults, source."""
    return [{"family": t.family, "description": t.description, "ops": list(t.ops), "space": t.space,
             "defaults": t.defaults, "source": t.source} for t in TEMPLATES.values()]


def get_template(family: str) -> KernelTemplate:
    if family not in TEMPLATES:
        raise UserError(f"no NPU template family {family!r}; families: {sorted(TEMPLATES)}")
    return TEMPLATES[family]


def render_kernel(spec: OpSpec, params: dict | None = None) -> str:
    """A complete kernel module (kernel, tiling, host function) for one operator."""
    template = get_template(spec.family)
    values = {**template.defaults, **(params or {})}
    unknown = set(values) - set(template.space)
    if unknown:
        raise UserError(f"unknown parameters {sorted(unknown)} for template {spec.family}; use {sorted(template.space)}")
    text = {k: str(v) for k, v in values.items()} | spec.template_values()
    text["DESCRIPTION"] = f"{spec.op} ({template.description})"
    return _Text(template.source).substitute(text)


def render_solution(task_source: str, spec: OpSpec, params: dict | None = None) -> str:
    """A KernelBench solution: the kernel module, the task's constants and ``ModelNew``."""
    tree = ast.parse(task_source)
    constants = [ast.get_source_segment(task_source, node) for node in tree.body
                 if isinstance(node, ast.Assign) and not any(isinstance(n, ast.Call) for n in ast.walk(node.value))
                 and not {getattr(t, "id", "") for t in node.targets} & TASK_METADATA]
    model = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    methods = {n.name: n for n in model.body if isinstance(n, ast.FunctionDef)}
    init, forward = methods["__init__"], methods["forward"]
    init_text = _plain_init(_inline_helpers(tree, init) or _dedent(ast.get_source_segment(task_source, init)))
    init_text = init_text.replace(".eval()", ".train(False)")  # the same mode; the static checks refuse eval()
    init_source = "\n".join("    " + line for line in init_text.splitlines())
    args = ", ".join(a.arg for a in forward.args.args)
    lines = ["", "", "\n".join(constants), "", "", "class ModelNew(nn.Module):",
             f'    """{spec.op} on the simulated NPU."""', "", init_source, "",
             f"    def forward({args}):", f"        return {spec.host_call()}", ""]
    return render_kernel(spec, params) + "\n".join(lines)


def _plain_init(init_text: str) -> str:
    """The reference constructor as ``ModelNew``'s: ``super(Model, self).__init__()`` (KernelBench's
    spelling) becomes ``super().__init__()``, since naming the reference class reads as using it, and
    layers without weights (``nn.MaxPool2d``, ``nn.ReLU``) are left out: the template computes them."""
    function = ast.parse(init_text).body[0]
    calls = [n for n in ast.walk(function) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "super" and n.args]
    kept = [statement for statement in function.body if not _builds_stateless_layer(statement)]
    if not calls and len(kept) == len(function.body):
        return init_text
    for call in calls:
        call.args = []
    function.body = kept
    return ast.unparse(function)


def _builds_stateless_layer(statement: ast.stmt) -> bool:
    """``self.x = nn.Layer(...)`` for a torch.nn layer class that owns no parameters (and draws no random numbers)."""
    if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Attribute)):
        return False
    layer = getattr(torch.nn, statement.value.func.attr, None)
    return (isinstance(layer, type) and issubclass(layer, torch.nn.Module) and layer.__name__ not in WEIGHTED
            and layer.__module__.rsplit(".", 1)[-1] in STATELESS_MODULES)


def _inline_helpers(tree: ast.Module, init: ast.FunctionDef) -> str | None:
    """``__init__`` with calls of the task's argument-free helper functions (``dense_matrix()``) replaced
    by their bodies, so the solution rebuilds the same parameters; None when it calls none."""
    helpers = {node.name: [s for s in node.body if not _is_docstring(s)]
               for node in tree.body if isinstance(node, ast.FunctionDef) and _inlinable(node)}
    inliner = _Inliner(helpers)
    body = []
    for statement in init.body:
        statement = inliner.visit(statement)
        body += inliner.pending + [statement]
        inliner.pending = []
    if not inliner.used:
        return None
    function = ast.FunctionDef(name=init.name, args=init.args, body=body, decorator_list=[], returns=None)
    return ast.unparse(ast.fix_missing_locations(ast.copy_location(function, init)))


class _Inliner(ast.NodeTransformer):
    """Replaces ``helper()`` by the helper's return expression; its other statements go to ``pending``."""

    def __init__(self, helpers: dict[str, list[ast.stmt]]):
        self.helpers, self.pending, self.used = helpers, [], False

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in self.helpers and not node.args and not node.keywords:
            steps = self.helpers[node.func.id]
            self.pending += steps[:-1]
            self.used = True
            return steps[-1].value
        return node


def _inlinable(function: ast.FunctionDef) -> bool:
    steps = [s for s in function.body if not _is_docstring(s)]
    arguments = function.args
    return (not function.decorator_list and not (arguments.args or arguments.vararg or arguments.kwonlyargs)
            and bool(steps) and isinstance(steps[-1], ast.Return) and steps[-1].value is not None
            and not any(isinstance(n, ast.Return) for s in steps[:-1] for n in ast.walk(s)))


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
        and isinstance(statement.value.value, str)


def _dedent(source: str) -> str:
    lines = source.splitlines()
    return "\n".join([lines[0]] + [line for line in lines[1:]])
