"""Expressions in host code: what each evaluates to (a :class:`Kind`) and whether it is allowed.

Host code may call the solution's own kernels and helpers, allowed torch/triton/NPU functions, and
tensor methods that query or view; it may do arithmetic and comparisons on plain numbers only. A
value built from a tensor is never turned back into a Python number (no ``float(x)``, ``x.item()``).
"""

from __future__ import annotations

import ast
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from benchmarks.kernels.verifier.static import allowlist as allow
from benchmarks.kernels.verifier.static.calls import init_refusal, REFUSED, CallRules, init_target, is_dunder, text
from benchmarks.kernels.verifier.static.kinds import NONE, SCALAR, TENSOR, UNKNOWN, Kind, Tag, element, join, join_all

if TYPE_CHECKING:
    from benchmarks.kernels.verifier.static.analysis import Analysis


class ExpressionScope(CallRules, ABC):
    """Evaluates expressions of one function (or of the module) in context ``ctx``: module, init or host."""

    def __init__(self, analysis: "Analysis", ctx: str, env: dict[str, Kind], local_names: set[str],
                 cls: str | None = None, key: str | None = None) -> None:
        self.analysis = analysis
        self.ctx = ctx
        self.env = env
        self.local_names = local_names
        self.cls = cls
        self.key = key

    def flag(self, node: ast.AST, rule: str, message: str) -> Kind:
        """Report a violation at ``node`` and return :data:`REFUSED`."""
        self.analysis.flag(node, rule, message)
        return REFUSED

    def eval(self, node: ast.AST) -> Kind:
        """The kind of expression ``node`` (reporting whatever in it is not allowed)."""
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            return self.flag(node, "not_allowed", f"{type(node).__name__} expressions are not allowed in a solution")
        return method(node)

    def scalar_only(self, kinds, node: ast.AST, what: str) -> bool:
        """Report (unless in __init__) when any of ``kinds`` may be a tensor; True when all are plain data."""
        bad = [k for k in kinds if k.tag is not Tag.SCALAR]
        if not bad or self.ctx == "init":
            return True
        if REFUSED not in bad:
            self.flag(node, "framework_compute", f"{text(node)} {what} a tensor (or a value that may be one): outside "
                                                 "your kernel only plain numbers such as sizes may be computed on")
        return False

    def _Constant(self, node: ast.Constant) -> Kind:
        return SCALAR

    def _JoinedStr(self, node: ast.JoinedStr) -> Kind:
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.scalar_only([self.eval(value.value)], value, "formats")
                if value.format_spec is not None:  # f"{v:{spec}}": the spec is an f-string of its own, evaluated too
                    self.eval(value.format_spec)
        return SCALAR

    def _Name(self, node: ast.Name) -> Kind:
        if node.id in self.local_names:
            kind = self.env.get(node.id, NONE)
            return UNKNOWN if kind.tag is Tag.NONE and self.analysis.reporting else kind
        return self.analysis.global_kind(node.id, node, self.ctx)

    def path(self, path: str, node: ast.AST) -> Kind:
        """What naming the imported ``path`` gives here (refusals reported at ``node``)."""
        return self.analysis.path_kind(path, node, self.ctx)

    def _Attribute(self, node: ast.Attribute) -> Kind:
        base = self.eval(node.value)
        if is_dunder(node.attr):
            return self.dunder(node, base)
        if node.attr == "__init__" and not init_target(base, node.value):
            return self.flag(node, *init_refusal(node))
        if base.tag is Tag.PATH:
            return self.path(f"{base.name}.{node.attr}", node)
        if base.tag in (Tag.SELF, Tag.OBJ, Tag.CLASS):
            return self.analysis.member(base, node.attr, node, self)
        if base.tag is Tag.LIB:
            return Kind(Tag.KERNEL, node.attr)
        if base.tag is Tag.LAYER:
            return self.layer_attribute(node)
        if base.tag is Tag.SCALAR:
            return SCALAR
        if base.tag in (Tag.TENSOR, Tag.UNKNOWN, Tag.NONE):
            return self.tensor_attribute(node, base)
        return self.flag(node, "not_allowed", f"{text(node)}: attributes of functions and kernels are not allowed")

    def dunder(self, node: ast.Attribute, base: Kind) -> Kind:
        if base.tag in (Tag.TENSOR, Tag.UNKNOWN, Tag.LAYER) and node.attr in allow.OPERATOR_DUNDERS:
            return self.flag(node, "framework_compute", f"{text(node)} is a tensor operator hook (framework compute): "
                                                        "compute in your kernel")
        return self.flag(node, "forbidden_attribute", f"attribute {node.attr} reaches interpreter internals (frames, "
                                                      "globals, classes, operator hooks); solutions may not use it")

    def layer_attribute(self, node: ast.Attribute) -> Kind:
        if node.attr in allow.LAYER_ATTRIBUTES:
            return TENSOR if node.attr in ("weight", "bias", "running_mean", "running_var") else SCALAR
        return self.flag(node, "framework_compute", f"{text(node)}: an nn layer may only hold weights (read .weight, "
                                                    ".bias and its settings); calling it runs the framework's op")

    def tensor_attribute(self, node: ast.Attribute, base: Kind) -> Kind:
        if node.attr in allow.TENSOR_DATA:
            return SCALAR
        if node.attr == "data":
            return TENSOR
        if base == REFUSED:
            return REFUSED
        return self.flag(node, "framework_compute", f"{text(node)}: the tensor attribute or method {node.attr!r} is "
                                                    "not on the allow-list (only shape, dtype, device and views are)")

    def _Subscript(self, node: ast.Subscript) -> Kind:
        value = self.eval(node.value)
        index = self.eval(node.slice)
        if value.tag is Tag.TRITON:
            return self.launch_grid(node, index)
        if value.tag in (Tag.TENSOR, Tag.UNKNOWN, Tag.NONE):
            if index.tag is not Tag.SCALAR and index != REFUSED and value != REFUSED:
                self.flag(node, "framework_compute", f"{text(node)} indexes a tensor with a tensor (a gather or mask "
                                                     "op): index inside your kernel")
            return value
        return SCALAR if value.tag in (Tag.SCALAR, Tag.PATH) else UNKNOWN

    def launch_grid(self, node: ast.Subscript, grid: Kind) -> Kind:
        if grid.tag is Tag.LAMBDA:
            self.analysis.grid_lambda(int(grid.name))
        elif grid.tag is not Tag.SCALAR and grid != REFUSED:
            self.flag(node, "not_allowed", f"{text(node)}: a launch grid is a tuple of sizes or lambda meta: (...)")
        return Kind(Tag.LAUNCH)

    def _Slice(self, node: ast.Slice) -> Kind:
        parts = [self.eval(p) for p in (node.lower, node.upper, node.step) if p is not None]
        return SCALAR if self.scalar_only(parts, node, "slices with") else REFUSED

    def _BinOp(self, node: ast.BinOp) -> Kind:
        left, right = self.eval(node.left), self.eval(node.right)
        if left.tag is Tag.SCALAR and right.tag is Tag.SCALAR:
            return SCALAR
        if self.ctx == "init" and left.is_data and right.is_data:
            return TENSOR if Tag.TENSOR in (left.tag, right.tag) else UNKNOWN
        if REFUSED in (left, right):
            return REFUSED
        return self.flag(node, "framework_compute", f"{text(node)}: arithmetic ({type(node.op).__name__}) on a tensor "
                                                    "(or a value that may be one) is framework compute; outside your "
                                                    "kernel only plain integer arithmetic on sizes is allowed")

    def _UnaryOp(self, node: ast.UnaryOp) -> Kind:
        operand = self.eval(node.operand)
        if isinstance(node.op, ast.Not) or operand.tag is Tag.SCALAR:
            return SCALAR
        if (self.ctx == "init" and operand.is_data) or operand == REFUSED:
            return operand
        return self.flag(node, "framework_compute", f"{text(node)}: {type(node.op).__name__} of a tensor is "
                                                    "framework compute; do it in your kernel")

    def _Compare(self, node: ast.Compare) -> Kind:
        kinds = [self.eval(node.left), *(self.eval(c) for c in node.comparators)]
        if all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            return SCALAR
        self.scalar_only(kinds, node, "compares")
        return SCALAR

    def _BoolOp(self, node: ast.BoolOp) -> Kind:
        return join_all(self.eval(v) for v in node.values)

    def _IfExp(self, node: ast.IfExp) -> Kind:
        self.eval(node.test)
        return join(self.eval(node.body), self.eval(node.orelse))

    def _Lambda(self, node: ast.Lambda) -> Kind:
        return self.analysis.lambda_kind(node, self)

    def items(self, nodes) -> Kind:
        kinds = []
        for item in nodes:
            kind = element(self.eval(item.value)) if isinstance(item, ast.Starred) else self.eval(item)
            if kind.tag is Tag.LAMBDA:
                kind = self.flag(item, "not_allowed", "a lambda may only be a Triton launch grid")
            kinds.append(kind)
        return join_all(kinds)

    def _Tuple(self, node: ast.Tuple) -> Kind:
        return self.items(node.elts)

    _List = _Set = _Tuple

    def _Dict(self, node: ast.Dict) -> Kind:
        return self.items([k for k in node.keys if k is not None] + node.values)

    def _Starred(self, node: ast.Starred) -> Kind:
        return self.eval(node.value)

    def comprehension(self, generators, *elements) -> Kind:
        for generator in generators:
            self.bind_loop(generator.target, generator.iter)
            for condition in generator.ifs:
                self.eval(condition)
        return join_all(self.eval(e) for e in elements)

    def _ListComp(self, node) -> Kind:
        return self.comprehension(node.generators, node.elt)

    _SetComp = _GeneratorExp = _ListComp

    def _DictComp(self, node: ast.DictComp) -> Kind:
        return self.comprehension(node.generators, node.key, node.value)

    def _NamedExpr(self, node: ast.NamedExpr) -> Kind:
        kind = self.eval(node.value)
        self.bind(node.target, kind, node.value)
        return kind

    @abstractmethod
    def bind(self, target: ast.AST, kind: Kind, value: ast.AST | None) -> None:
        """Assignment of ``kind`` to ``target`` (the statement scope implements every target form)."""

    @abstractmethod
    def bind_loop(self, target: ast.AST, iterable: ast.AST) -> None:
        """Bind a loop or comprehension target from its iterable."""
