"""Host statements: bindings carry kinds (a rebound tensor is still a tensor), writes into tensors and
containers are refused, definitions and imports belong at module level."""

import ast

import pytest

from benchmarks.kernels.verifier.static.check import allow_list_rule

HEAD = "import torch\nimport torch.nn as nn\n"


def rules(forward_body: str) -> list[str]:
    body = "\n".join("        " + line for line in forward_body.splitlines())
    source = HEAD + f"class ModelNew(nn.Module):\n    def forward(self, x):\n{body}\n"
    return [v.rule for v in allow_list_rule(ast.parse(source))]


@pytest.mark.parametrize("body", [
    "y = x\nreturn (y > 0) * y",
    "a, b = x, 1\nreturn a * b",
    "(a, b) = (1, x)\nreturn b + a",
    "y = x\ny *= 2\nreturn y",
    "for i, t in enumerate([x, x]):\n    z = t * i\nreturn z",
    "for t in x:\n    z = t + 1\nreturn z",
    "z = [t * 2 for t in x]\nreturn z",
    "if (n := x) is not None:\n    return n - 1",
])
def test_rebinding_keeps_the_tensor_kind(body):
    assert "framework_compute" in rules(body)


def test_loops_over_sizes_stay_plain_numbers():
    assert rules("total = 0\nfor i, n in enumerate(x.shape):\n    total += i * n\nreturn total") == []


@pytest.mark.parametrize("body, rule", [
    ("out = torch.empty_like(x)\nout[:] = x\nreturn out", "framework_compute"),
    ("cache = {}\ncache['y'] = x\nreturn x", "not_allowed"),
    ("x.data = x\nreturn x", "framework_compute"),
    ("del x.grad\nreturn x", "stateful"),
    ("def inner():\n    return 1\nreturn inner()", "not_allowed"),
    ("class Inner:\n    pass\nreturn x", "not_allowed"),
    ("import math\nreturn x", "imports"),
    ("seen = []\nseen.append(1)\nreturn x", "stateful"),
])
def test_writes_definitions_and_imports(body, rule):
    assert rule in rules(body)
