"""Host expressions: what forward may call, read and compute."""

import ast

import pytest

from benchmarks.kernels.verifier.static.check import allow_list_rule

HEAD = '''import torch
import torch.nn as nn
from sandboxes.targets.native import load_cpp
lib = load_cpp("k", "", {"k": ["tensor", "tensor", "int"]})
'''


def rules(forward_body: str) -> list[str]:
    body = "\n".join("        " + line for line in forward_body.splitlines())
    source = HEAD + f"class ModelNew(nn.Module):\n    def forward(self, x, y):\n{body}\n"
    return [v.rule for v in allow_list_rule(ast.parse(source))]


@pytest.mark.parametrize("body", [
    "out = torch.empty_like(x)\nlib.k(out, x.contiguous(), x.numel())\nreturn out",
    "out = x.new_empty((x.size(0), x.shape[1] * 2))\nlib.k(out, x.view(-1), x.numel() // 4 + 1)\nreturn out",
    "n = x.numel()\nblocks = (n + 255) // 256\nlib.k(x, y, min(blocks, 8) if n > 0 else 1)\nreturn y",
    "rows, cols = x.shape\nfor r in range(rows):\n    lib.k(y[r], x[r], cols)\nreturn y",
    "assert x.dim() == 2, f'expected 2-D, got {x.dim()}'\nreturn lib.k(x, y, len(x))",
    "z = x if y is None else y.float().contiguous()\nreturn z",
    "with torch.no_grad():\n    out = torch.zeros(x.shape, dtype=torch.float32, device=x.device)\nreturn out",
])
def test_honest_host_code_passes(body):
    assert rules(body) == []


@pytest.mark.parametrize("body, rule", [
    ("return x * 2", "framework_compute"),
    ("return -x", "framework_compute"),
    ("return x > 0", "framework_compute"),
    ("return x.exp()", "framework_compute"),
    ("return x.t().contiguous()", "framework_compute"),
    ("return x[y > 0]", "framework_compute"),
    ("return x.__add__(y)", "framework_compute"),
    ("return float(x)", "framework_compute"),
    ("return x.item()", "framework_compute"),
    ("return torch.tensor(x)", "framework_compute"),
    ("return f'{x}'", "framework_compute"),
    ("return str(x)", "framework_compute"),
    ("f = x.relu\nreturn f()", "framework_compute"),
    ("return x.__class__", "forbidden_attribute"),
    ("return lib.__dict__", "forbidden_attribute"),
    ("return torch.randn(3)", "framework_compute"),
    ("return type(x)", "not_allowed"),
    ("fn = self.missing\nreturn fn(x)", "not_allowed"),
    ("return (lambda t: t)(x)", "not_allowed"),
    ("grid = lambda meta=x.relu(): meta\nreturn y", "framework_compute"),
    ("grid = lambda meta, *, n=getattr(x, 'relu')(): meta\nreturn y", "dynamic_code"),
    ("def grid(meta, n=x.relu()):\n    return (1,)\nreturn y", "framework_compute"),
    ("s = f\"{1:{exec('pass') or ''}}\"\nreturn y", "dynamic_code"),
    ("return lib.k(x, lambda t: t.relu(), 1)", "not_allowed"),
    ("return print(x)", "output"),
    ("return getattr(x, 'relu')()", "dynamic_code"),
    ("import sys\nsys.exit(0)", "early_exit"),
])
def test_compute_and_escapes_are_reported(body, rule):
    assert rule in rules(body)


def test_a_name_defined_nowhere_is_a_name_error_not_a_violation():
    assert rules("return helper_from_another_template(x)") == []


def test_a_refusal_is_reported_once_not_at_every_later_use():
    assert rules("op = torch.relu\nz = op(x)\nreturn op(z)") == ["framework_compute"]
