"""Fuse several operators into one template operator: one launch (or one kernel sequence) and one GM
round trip instead of one per operator (what the eager baseline pays). Element-wise chains, an
element-wise prologue of a full reduction, epilogues of linear layers and bias adds, a norm's residual
prologue and activation stages, and a convolution's norm and activation."""

from __future__ import annotations

from sandboxes.targets.npu.templates.ops import ELEMENTWISE, OpSpec
from sandboxes.targets.npu.templates.recognize import Graph

COMMUTATIVE = {"add", "mul"}


def fuse_elementwise(graph: Graph) -> OpSpec | None:
    """One fused element-wise operator for a linear chain over at most two inputs, else None.

    Each operator after the first must take the previous result as an operand; a binary operator's
    other operand must be an original input that is still intact (the first input is overwritten
    once the chain starts, so only the second input may join later stages).
    """
    if len(graph.ops) < 2 or graph.unsupported or graph.output != graph.ops[-1][0]:
        return None
    if any(spec.family != "elementwise" for _, spec in graph.ops):
        return None
    results = {name for name, _ in graph.ops}
    inputs = list(graph.ops[0][1].args)
    previous = graph.ops[0][0]
    for name, spec in graph.ops[1:]:
        if not _joins(spec, previous, inputs, results):
            return None
        inputs += [a for a in spec.args if a != previous and a not in inputs]
        previous = name
    if len(inputs) > 2 or any(a in results for a in inputs):
        return None
    stages = [spec for _, spec in graph.ops]
    return OpSpec("+".join(s.op for s in stages), "elementwise", inputs, {"stages": stages})


def fuse_reduction(graph: Graph) -> OpSpec | None:
    """An element-wise prologue (one operator or a fusable chain) feeding a full reduction, as one
    full_reduce operator whose tiles run the prologue in UB before they are accumulated."""
    if len(graph.ops) < 2 or graph.unsupported or graph.output != graph.ops[-1][0]:
        return None
    last = graph.ops[-1][1]
    feeding = graph.ops[-2][0]
    if last.family != "full_reduce" or last.args != [feeding]:
        return None
    prologue = Graph(ops=graph.ops[:-1], output=feeding)
    if len(prologue.ops) == 1:
        first = prologue.ops[0][1]
        chain = first if first.family == "elementwise" and ELEMENTWISE[first.op][0] == len(first.args) else None
        stages = [first]
    else:
        chain = fuse_elementwise(prologue)
        stages = chain.attrs["stages"] if chain else []
    if chain is None or len(set(chain.args)) != len(chain.args):
        return None
    return OpSpec("+".join([s.op for s in stages] + [last.op]), "full_reduce", chain.args,
                  {"stages": stages, "reduce": last.attrs["reduce"]})


def fuse_epilogue(graph: Graph) -> OpSpec | None:
    """A linear layer (or a bias add) followed by element-wise stages and optionally a sum or mean of
    each row, as one operator whose vector epilogue runs the stages (and the row reduction); a binary
    stage's other operand may only be the head's result."""
    if len(graph.ops) < 2 or graph.unsupported or graph.output != graph.ops[-1][0]:
        return None
    head_name, head = graph.ops[0]
    if head.family not in ("linear", "epilogue"):
        return None
    ops, reduce = graph.ops[1:], {}
    last = ops[-1][1]
    if last.op in ("sum_rows", "mean_rows") and last.args == [graph.ops[-2][0]]:
        ops, reduce = ops[:-1], {"row_reduce": last.op.removesuffix("_rows")}
    previous = head_name
    for name, spec in ops:
        if spec.family != "elementwise" or spec.args.count(previous) != 1 or ELEMENTWISE[spec.op][0] != len(spec.args):
            return None
        if len(spec.args) == 2 and ({*spec.args} != {previous, head_name}
                                    or not (spec.args[0] == previous or spec.op in COMMUTATIVE)):
            return None
        previous = name
    stages = [spec for _, spec in ops]
    return OpSpec("+".join(spec.op for _, spec in graph.ops), head.family, head.args,
                  {**head.attrs, "stages": stages, **reduce})


PROLOGUES = {"add", "sub", "mul"}
"""Binary operators a norm can apply in place to each chunk before its statistics (x op= r)."""


def fuse_norm(graph: Graph) -> OpSpec | None:
    """[x op r →] a norm [→ unary element-wise stages] as one norm operator: the prologue runs on every
    chunk in both passes, the stages run on the normalised chunk before it is stored."""
    if len(graph.ops) < 2 or graph.unsupported or graph.output != graph.ops[-1][0]:
        return None
    index = next((i for i, (_, spec) in enumerate(graph.ops) if spec.family == "norm"), None)
    if index not in (0, 1):
        return None
    name, norm = graph.ops[index]
    args = list(norm.args)
    attrs = {**norm.attrs, "norm": norm.op}
    if index == 1:
        first_name, first = graph.ops[0]
        if first.op not in PROLOGUES or norm.args != [first_name] or len(set(first.args)) != 2:
            return None
        args, attrs["prologue"] = list(first.args), first.op
    previous, stages = name, []
    for stage_name, stage in graph.ops[index + 1:]:
        if stage.family != "elementwise" or stage.args != [previous] or ELEMENTWISE[stage.op][0] != 1:
            return None
        stages.append(stage)
        previous = stage_name
    attrs["stages"] = stages
    ops = [s.op for _, s in graph.ops]
    return OpSpec("+".join(ops), "norm", args, attrs)


def fuse_conv(graph: Graph) -> OpSpec | None:
    """conv2d [→ eval batch norm or group norm] [→ unary element-wise stages] as one conv2d operator
    whose per-channel epilogue applies the bias, the norm and the stages in one pass."""
    if len(graph.ops) < 2 or graph.unsupported or graph.output != graph.ops[-1][0]:
        return None
    previous, conv = graph.ops[0]
    if conv.family != "conv2d":
        return None
    args, attrs, rest = conv.args + ["None"] * (3 - len(conv.args)), dict(conv.attrs), graph.ops[1:]
    if rest[0][1].family == "channel" and rest[0][1].args[0] == previous:
        (previous, norm), rest = rest[0], rest[1:]
        args += norm.args[1:]
        attrs.update(norm.attrs, affine=norm.op)
    stages = []
    for name, stage in rest:
        if stage.family != "elementwise" or stage.args != [previous] or ELEMENTWISE[stage.op][0] != 1:
            return None
        stages.append(stage)
        previous = name
    return OpSpec("+".join(spec.op for _, spec in graph.ops), "conv2d", args, attrs | {"stages": stages})


def fuse_separable(graph: Graph) -> OpSpec | None:
    """A depthwise convolution followed by a 1x1 convolution without bias (a depthwise-separable
    convolution) as one separable operator."""
    if len(graph.ops) != 2 or graph.unsupported or graph.output != graph.ops[1][0]:
        return None
    (depthwise_name, depthwise), (_, pointwise) = graph.ops
    one_by_one = {"kh": 1, "kw": 1, "stride": 1, "pad_h": 0, "pad_w": 0, "dil_h": 1, "dil_w": 1}
    if depthwise.op != "depthwise_conv2d" or pointwise.op != "conv2d" or len(pointwise.args) != 2 \
            or pointwise.args[0] != depthwise_name or pointwise.attrs != one_by_one:
        return None
    return OpSpec("depthwise_separable", "separable", depthwise.args + pointwise.args[1:], dict(depthwise.attrs))


def fuse_attention(graph: Graph) -> OpSpec | None:
    """matmul(q, k^T) -> times a scale -> softmax -> matmul(., v) as one attention operator."""
    if len(graph.ops) != 4 or graph.unsupported or graph.output != graph.ops[3][0]:
        return None
    (scores, first), (scaled, scale), (probs, soft), (_, second) = graph.ops
    if first.family != "matmul" or not first.attrs.get("transpose_b") or first.attrs.get("transpose_a") \
            or scale.op != "scale_shift" or scale.attrs["shift"] != 0.0 or scale.args != [scores] \
            or soft.op != "softmax" or soft.args != [scaled] or second.family != "matmul" \
            or second.args[0] != probs or second.attrs.get("transpose_b") or second.attrs.get("transpose_a"):
        return None
    return OpSpec("attention", "attention", first.args + [second.args[1]], {"scale": scale.attrs["scale"]})


def fuse_triangle(graph: Graph) -> OpSpec | None:
    """A 2-D matmul followed by triu or tril as one matmul operator that masks its product (and skips
    the cube tiles the mask zeroes)."""
    if len(graph.ops) != 2 or graph.unsupported or graph.output != graph.ops[1][0]:
        return None
    (product, matmul), (_, mask) = graph.ops
    if matmul.family != "matmul" or mask.family != "triangle" or mask.args != [product]:
        return None
    return OpSpec(f"matmul_{mask.op}", "matmul", matmul.args,
                  {**matmul.attrs, "triangle": "upper" if mask.op == "triu" else "lower"})


def _joins(spec: OpSpec, previous: str, inputs: list[str], results: set[str]) -> bool:
    """Whether ``spec`` can be the next stage after ``previous``."""
    if spec.args.count(previous) != 1 or ELEMENTWISE[spec.op][0] != len(spec.args):
        return False
    if len(spec.args) == 1:
        return True
    other = next(a for a in spec.args if a != previous)
    if other in results or (other in inputs and inputs.index(other) == 0):
        return False
    return spec.args[0] == previous or spec.op in COMMUTATIVE


def fuse(graph: Graph) -> OpSpec | None:
    """The one fused operator that computes a multi-operator graph, or None when no fusion applies."""
    for fusion in (fuse_elementwise, fuse_reduction, fuse_epilogue, fuse_norm, fuse_conv, fuse_triangle,
                   fuse_separable, fuse_attention):
        spec = fusion(graph)
        if spec is not None:
            return spec
    return None
