"""The operator library: which template family computes each operator, and the vector code of
every element-wise operator (run inside the elementwise template's ``compute(y, x, x2, t1, t2, n)``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

SIGMOID = """Muls({out}, {src}, -1.0, n)
Exp({out}, {out}, n)
Adds({out}, {out}, 1.0, n)
Reciprocal({out}, {out}, n)"""
TANH = """Muls({out}, {src}, -2.0, n)
Exp({out}, {out}, n)
Adds({out}, {out}, 1.0, n)
Reciprocal({out}, {out}, n)
Muls({out}, {out}, 2.0, n)
Adds({out}, {out}, -1.0, n)"""
# erf(z) for z >= 0 by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7); gelu = (x + |x| erf(|x|/sqrt 2)) / 2
GELU_ERF = """Abs(t1, x, n)
Muls(t1, t1, 0.7071067811865476, n)
Mul(t2, t1, t1, n)
Muls(t2, t2, -1.0, n)
Exp(t2, t2, n)
Muls(t1, t1, 0.3275911, n)
Adds(t1, t1, 1.0, n)
Reciprocal(t1, t1, n)
Muls(y, t1, 1.061405429, n)
Adds(y, y, -1.453152027, n)
Mul(y, y, t1, n)
Adds(y, y, 1.421413741, n)
Mul(y, y, t1, n)
Adds(y, y, -0.284496736, n)
Mul(y, y, t1, n)
Adds(y, y, 0.254829592, n)
Mul(y, y, t1, n)
Mul(y, y, t2, n)
Muls(y, y, -1.0, n)
Adds(y, y, 1.0, n)
Abs(t1, x, n)
Mul(y, y, t1, n)
Add(y, y, x, n)
Muls(y, y, 0.5, n)"""
GELU_TANH = """Mul(t1, x, x, n)
Muls(t1, t1, 0.044715, n)
Adds(t1, t1, 1.0, n)
Mul(t1, t1, x, n)
Muls(t1, t1, 0.7978845608028654, n)
""" + TANH.format(out="t1", src="t1") + """
Adds(t1, t1, 1.0, n)
Mul(y, t1, x, n)
Muls(y, y, 0.5, n)"""

ELEMENTWISE: dict[str, tuple[int, str]] = {
    "relu": (1, "Relu(y, x, n)"),
    "leaky_relu": (1, "LeakyRelu(y, x, {negative_slope}, n)"),
    "sigmoid": (1, SIGMOID.format(out="y", src="x")),
    "tanh": (1, TANH.format(out="y", src="x")),
    "silu": (1, SIGMOID.format(out="t1", src="x") + "\nMul(y, t1, x, n)"),
    "gelu": (1, GELU_ERF),
    "gelu_tanh": (1, GELU_TANH),
    "softplus": (1, "Abs(t1, x, n)\nMuls(t1, t1, -1.0, n)\nExp(t1, t1, n)\nAdds(t1, t1, 1.0, n)\nLn(t1, t1, n)\n"
                    "Relu(y, x, n)\nAdd(y, y, t1, n)"),
    "elu": (1, "Mins(t1, x, 0.0, n)\nExp(t1, t1, n)\nAdds(t1, t1, -1.0, n)\nMuls(t1, t1, {alpha}, n)\n"
               "Relu(y, x, n)\nAdd(y, y, t1, n)"),
    "hardtanh": (1, "Maxs(y, x, {min_val}, n)\nMins(y, y, {max_val}, n)"),
    "hardsigmoid": (1, "Muls(y, x, 0.16666666666666666, n)\nAdds(y, y, 0.5, n)\nMaxs(y, y, 0.0, n)\n"
                       "Mins(y, y, 1.0, n)"),
    "selu": (1, "Mins(t1, x, 0.0, n)\nExp(t1, t1, n)\nAdds(t1, t1, -1.0, n)\nMuls(t1, t1, {alpha_scale}, n)\n"
                "Relu(y, x, n)\nMuls(y, y, {scale}, n)\nAdd(y, y, t1, n)"),
    "square": (1, "Mul(y, x, x, n)"),
    "scale_shift": (1, "Muls(y, x, {scale}, n)\nAdds(y, y, {shift}, n)"),
    "add": (2, "Add(y, x, x2, n)"),
    "sub": (2, "Sub(y, x, x2, n)"),
    "mul": (2, "Mul(y, x, x2, n)"),
    "div": (2, "Div(y, x, x2, n)"),
}


def chain_code(stages: list["OpSpec"]) -> str:
    """Vector code of fused element-wise stages: stage k reads the previous result and writes the other
    of the two tile buffers (x, y), so intermediates never leave UB; the result ends in y."""
    lines = []
    for index, stage in enumerate(stages):
        code = ELEMENTWISE[stage.op][1].format(**stage.attrs)
        if index % 2:
            code = re.sub(r"\b(x|y)\b", lambda m: {"x": "y", "y": "x"}[m.group(1)], code)
        lines += [f"# stage {index}: {stage.op}", code]
    if len(stages) % 2 == 0:
        lines.append("DataCopy(y, x, AlignedCount(n, y.dtype))")
    return "\n".join(lines)


def staged_code(stages: list["OpSpec"]) -> str:
    """Vector code of fused element-wise stages that one launch can run whole (``stage`` < 0: the chain in
    UB) or one stage of (``stage`` k: x, the result of stage k - 1 read back from GM, to y)."""
    lines = ["if stage < 0:", *("    " + line for line in chain_code(stages).splitlines())]
    for index, stage in enumerate(stages):
        code = ELEMENTWISE[stage.op][1].format(**stage.attrs)
        lines += [f"elif stage == {index}:  # {stage.op}", *("    " + line for line in code.splitlines())]
    return "\n".join(lines)


@dataclass
class OpSpec:
    """One recognised operator: its name, template family, arguments and attributes."""

    op: str
    family: str
    args: list[str]
    """Python expressions for the tensor arguments inside ``forward`` (``x``, ``self.norm.weight``)."""
    attrs: dict[str, Any] = field(default_factory=dict)

    def host_call(self) -> str:
        """The call of the template's host function that computes this operator."""
        if self.family == "elementwise":
            scalar = [f"s={self.attrs['scalar']}"] if self.attrs.get("scalar") else []
            return f"run_elementwise({', '.join(self.args + scalar)})"
        if self.family == "norm":
            weight, bias = self.attrs.get("weight", "None"), self.attrs.get("bias", "None")
            return f"run_norm({', '.join([self.args[0], weight, bias] + self.args[1:])})"
        if self.family == "matmul":
            extra = (", transpose_a=True" if self.attrs.get("transpose_a") else "") + (
                f", triangle={self.attrs['triangle']!r}" if self.attrs.get("triangle") else "")
            return f"run_matmul({self.args[0]}, {self.args[1]}, transpose_b={self.attrs.get('transpose_b', False)}{extra})"
        return f"run_{self.family}({', '.join(self.args)})"

    def template_values(self) -> dict[str, str]:
        """Family-specific placeholders of the template text."""
        if self.family == "elementwise":
            return self._elementwise_values()
        if self.family == "row_reduce":
            return {"REDUCE": self.op.removesuffix("_rows")}
        if self.family == "scan":
            return {"SCAN": self.attrs.get("scan", "sum"), "REVERSE": str(bool(self.attrs.get("reverse"))),
                    "EXCLUSIVE": str(bool(self.attrs.get("exclusive"))), "MASKED": str(len(self.args) == 2)}
        if self.family == "row_loss":
            return {"LOSS": self.attrs["loss"], "MARGIN": repr(self.attrs.get("margin", 1.0)),
                    "EPS": repr(self.attrs.get("eps", 1e-6))}
        if self.family == "triangle":
            return {"UPPER": str(self.op == "triu")}
        if self.family == "axis_reduce":
            return {"REDUCE": self.attrs["reduce"], "DIM": str(self.attrs["dim"]),
                    "KEEPDIM": str(bool(self.attrs.get("keepdim"))), "EPS": repr(self.attrs.get("eps", 0.0))}
        if self.family == "softmax":
            return {"LOG": str(self.op == "log_softmax")}
        if self.family == "norm":
            mode = {"rms_norm": "rms", "l2_normalize": "l2", "l1_normalize": "l1"}.get(self.attrs.get("norm", self.op), "layer")
            return {"MODE": mode, "EPS": repr(self.attrs.get("eps", 1e-5)),
                    "NORM_DIMS": str(self.attrs.get("norm_dims", 1))} | self._norm_fusion_values()
        if self.family == "full_reduce":
            return self._full_reduce_values()
        if self.family in ("epilogue", "linear"):
            stages = self.attrs.get("stages", [])
            code = chain_code(stages) if stages else "DataCopy(y, x, AlignedCount(n, y.dtype))"
            return {"HEAD_OPERAND": str(any(len(stage.args) == 2 for stage in stages)),
                    "ROW_REDUCE": self.attrs.get("row_reduce", ""),
                    "COMPUTE": "\n".join("    " + line for line in code.splitlines())}
        if self.family == "channel":
            return self._channel_values(self.op)
        if self.family == "window":
            return self._window_values() | {"WINDOW": self.op.split("_")[0]}
        if self.family == "attention":
            return {"SCALE": repr(self.attrs.get("scale"))}
        if self.family == "global_norm":
            return {"COMPUTE": "    Mul(y, x, x, n)"}
        if self.family == "separable":
            return self._window_values()
        if self.family == "conv2d":
            return self._window_values() | self._channel_values(self.attrs.get("affine", "bias"))
        return {}

    def _window_values(self) -> dict[str, str]:
        """Window shape, stride, padding (``pad`` for both sides or ``pad_h``/``pad_w``) and dilation."""
        attrs = self.attrs
        return {"KH": str(attrs["kh"]), "KW": str(attrs["kw"]), "STRIDE": str(attrs["stride"]),
                "PAD_H": str(attrs.get("pad_h", attrs.get("pad", 0))), "PAD_W": str(attrs.get("pad_w", attrs.get("pad", 0))),
                "DIL_H": str(attrs.get("dil_h", 1)), "DIL_W": str(attrs.get("dil_w", 1))}

    def _channel_values(self, affine: str) -> dict[str, str]:
        stages = self.attrs.get("stages", [])
        code = chain_code(stages) if stages else "pass"
        return {"AFFINE": affine, "EPS": repr(self.attrs.get("eps", 1e-5)), "GROUPS": str(self.attrs.get("groups", 1)),
                "STAGES": str(bool(stages)), "COMPUTE": "\n".join("    " + line for line in code.splitlines())}

    def _norm_fusion_values(self) -> dict[str, str]:
        """The norm family's optional prologue (x op= r, in place) and epilogue stages."""
        stages, first = self.attrs.get("stages", []), self.attrs.get("prologue")
        code = ELEMENTWISE[first][1].replace("y,", "x,").replace("x2", "r") if first else "pass"
        return {"PROLOGUE": str(first is not None), "PROLOGUE_CODE": "    " + code, "STAGES": str(bool(stages)),
                "COMPUTE": "\n".join("    " + line for line in (chain_code(stages) if stages else "pass").splitlines())}

    def _elementwise_values(self) -> dict[str, str]:
        """One operator, a compiled expression, or fused stages (which a launch may also run one at a time)."""
        stages = self.attrs.get("stages", [])
        if stages and "code" not in self.attrs:
            inputs, code, counts = len(self.args), staged_code(stages), [ELEMENTWISE[s.op][0] for s in stages]
        elif "code" in self.attrs:
            inputs, code, counts = len(self.args), self.attrs["code"], [len(self.args)]
        else:
            inputs, code = ELEMENTWISE[self.op][0], ELEMENTWISE[self.op][1].format(**self.attrs)
            counts = [inputs]
        return {"INPUTS": str(inputs), "STAGE_INPUTS": str(counts),
                "COMPUTE": "\n".join("    " + line for line in code.splitlines())}

    def _code(self) -> str:
        """The vector code of fused stages, or of a compiled element-wise expression."""
        return self.attrs["code"] if "code" in self.attrs else chain_code(self.attrs["stages"])

    def _full_reduce_values(self) -> dict[str, str]:
        prologue = bool(self.attrs.get("stages") or self.attrs.get("code"))
        code = self._code() if prologue else "pass"
        return {"INPUTS": str(len(self.args)), "PROLOGUE": str(prologue), "REDUCE": self.attrs["reduce"],
                "COMPUTE": "\n".join("    " + line for line in code.splitlines())}
