"""Statements in host code (function bodies, the module's top level): assignments bind kinds, and
what may not appear in a solution (nested definitions, local imports, writes into tensors) is reported."""

from __future__ import annotations

import ast
import copy

from benchmarks.kernels.verifier.static.expressions import REFUSED, ExpressionScope, text
from benchmarks.kernels.verifier.static.kinds import NONE, SCALAR, Kind, Tag, element, join, join_all

LOOP_BUILTINS = ("enumerate", "zip")


class Scope(ExpressionScope):
    """One function body (or the module) being checked."""

    def run(self, body: list[ast.stmt]) -> None:
        """Check every statement of ``body`` in order."""
        for statement in body:
            handler = getattr(self, "s_" + type(statement).__name__, None)
            if handler is None:
                self.flag(statement, "not_allowed", f"{type(statement).__name__} statements are not allowed in a "
                                                    "solution")
            else:
                handler(statement)

    def s_Expr(self, node: ast.Expr) -> None:
        self.eval(node.value)

    def s_Assign(self, node: ast.Assign) -> None:
        kind = self.eval(node.value)
        for target in node.targets:
            self.bind(target, kind, node.value)

    def s_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.bind(node.target, self.eval(node.value), node.value)

    def s_AugAssign(self, node: ast.AugAssign) -> None:
        load = ast.copy_location(ast.BinOp(left=_as_load(node.target), op=node.op, right=node.value), node)
        self.bind(node.target, self.eval(load), None)

    def s_For(self, node: ast.For) -> None:
        self.bind_loop(node.target, node.iter)
        self.run(node.body)
        self.run(node.orelse)

    s_AsyncFor = s_For

    def s_While(self, node: ast.While) -> None:
        self.eval(node.test)
        self.run(node.body)
        self.run(node.orelse)

    def s_If(self, node: ast.If) -> None:
        self.eval(node.test)
        self.run(node.body)
        self.run(node.orelse)

    def s_With(self, node: ast.With) -> None:
        for item in node.items:
            kind = self.eval(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, kind, None)
        self.run(node.body)

    def s_Raise(self, node: ast.Raise) -> None:
        for part in (node.exc, node.cause):
            if part is not None:
                self.eval(part)

    def s_Assert(self, node: ast.Assert) -> None:
        self.eval(node.test)
        if node.msg is not None:
            self.eval(node.msg)

    def s_Return(self, node: ast.Return) -> None:
        kind = self.eval(node.value) if node.value is not None else SCALAR
        if kind.tag is Tag.LAMBDA:
            kind = self.flag(node, "not_allowed", "a lambda may only be a Triton launch grid, not returned")
        if self.key is not None:
            self.analysis.record_return(self.key, kind)

    def s_Pass(self, node: ast.stmt) -> None:
        """Nothing to check."""

    s_Break = s_Continue = s_Global = s_Nonlocal = s_Pass

    def s_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if not isinstance(target, ast.Name):
                self.flag(target, "stateful", f"del {text(target)} changes an object; only local names may be deleted")

    def s_Try(self, node: ast.Try) -> None:
        self.run(node.body)
        for handler in node.handlers:
            self.run(handler.body)
        self.run(node.orelse)
        self.run(node.finalbody)

    def s_FunctionDef(self, node: ast.FunctionDef) -> None:
        """A plain nested function is allowed as what a lambda may be: a Triton launch grid (``def grid(meta)``)."""
        if self.key is None or node.decorator_list or isinstance(node, ast.AsyncFunctionDef):
            self.s_ClassDef(node)
        else:
            self.assign_name(node.name, self.analysis.lambda_kind(node, self))

    s_AsyncFunctionDef = s_FunctionDef

    def s_ClassDef(self, node: ast.stmt) -> None:
        self.flag(node, "not_allowed", "define helper functions and classes at module level, not inside a function")

    def s_Import(self, node: ast.stmt) -> None:
        self.flag(node, "imports", "imports belong at module level")

    s_ImportFrom = s_Import

    def bind(self, target: ast.AST, kind: Kind, value: ast.AST | None) -> None:
        if isinstance(target, ast.Name):
            self.assign_name(target.id, kind)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target, kind, value)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, kind, None)
        elif isinstance(target, ast.Attribute):
            self.assign_attribute(target, kind)
        elif isinstance(target, ast.Subscript):
            self.assign_item(target, kind)

    def assign_name(self, name: str, kind: Kind) -> None:
        if self.key is None:
            self.analysis.assign_global(name, kind)
            return
        self.local_names.add(name)
        merged = join(self.env.get(name, NONE), kind)
        if merged != self.env.get(name):
            self.env[name] = merged
            self.analysis.changed = True

    def unpack(self, target: ast.Tuple | ast.List, kind: Kind, value: ast.AST | None) -> None:
        items = target.elts
        same_shape = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(items) and not any(
            isinstance(i, ast.Starred) for i in [*items, *value.elts])
        for position, item in enumerate(items):
            if same_shape:
                self.bind(item, self.eval(value.elts[position]), value.elts[position])
            else:
                self.bind(item, element(kind), None)

    def assign_attribute(self, target: ast.Attribute, kind: Kind) -> None:
        owner = self.eval(target.value)
        if kind.tag is Tag.LAMBDA:
            self.flag(target, "not_allowed", "a lambda may only be a Triton launch grid, not stored")
        elif owner.tag in (Tag.SELF, Tag.OBJ) and self.ctx == "host" and not (self.key or "").endswith(".__init__"):
            self.flag(target, "stateful", f"assigning {text(target)} stores state on an object outside __init__ "
                                          "(through a helper's parameter too): keep per-call values in locals")
        elif owner.tag in (Tag.SELF, Tag.OBJ):
            self.analysis.assign_attribute(owner.name, target.attr, kind)
        elif owner.tag in (Tag.TENSOR, Tag.UNKNOWN) and owner != REFUSED:
            self.flag(target, "framework_compute", f"assigning {text(target)} changes a tensor outside your kernel")
        elif owner.tag is not Tag.PATH and owner != REFUSED:  # module attributes: the monkeypatch rule
            self.flag(target, "not_allowed", f"assigning {text(target)}: only your own objects' attributes may be set")

    def assign_item(self, target: ast.Subscript, kind: Kind) -> None:
        container = self.eval(target.value)
        self.eval(target.slice)
        if self.ctx == "init" or container == REFUSED:
            return
        if container.tag is not Tag.SCALAR:
            self.flag(target, "framework_compute", f"{text(target)} = ... writes into a tensor outside your kernel "
                                                   "(a copy op): write outputs in your kernel")
        elif kind.tag is not Tag.SCALAR:
            self.flag(target, "not_allowed", f"{text(target)} = ... stores a tensor into a container; keep tensors "
                                             "in names")

    def bind_loop(self, target: ast.AST, iterable: ast.AST) -> None:
        builtin = iterable.func.id if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) else ""
        if builtin in LOOP_BUILTINS and isinstance(target, ast.Tuple) and not iterable.keywords and not any(
                isinstance(a, ast.Starred) for a in iterable.args) and builtin not in self.local_names:
            self.eval(iterable.func)
            items = [element(self.eval(a)) for a in iterable.args]  # each argument once: nested loops stay linear
            parts = [SCALAR, *items] if builtin == "enumerate" else items
            if len(parts) == len(target.elts) or builtin == "zip":
                for item, part in zip(target.elts, parts):
                    self.bind(item, part, None)
                return
            kind = join_all(items)
        else:
            kind = self.eval(iterable)
        self.bind(target, element(kind), None)


def _as_load(target: ast.AST) -> ast.AST:
    """The expression reading what an augmented assignment writes (same positions)."""
    clone = copy.deepcopy(target)
    for node in ast.walk(clone):
        if hasattr(node, "ctx"):
            node.ctx = ast.Load()
    return clone
