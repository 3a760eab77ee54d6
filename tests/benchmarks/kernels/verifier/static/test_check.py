"""The entry point: violations sorted by line, and a target's kernel languages decide which loaders and
kernel modules a solution may reach."""

import ast

from benchmarks.kernels.verifier.static.check import allow_list_rule

SOURCE = ("import torch\nimport torch.nn as nn\nfrom sandboxes.targets.native import load_cpp\n"
          "lib = load_cpp('k', '', {'k': ['tensor']})\n"
          "class ModelNew(nn.Module):\n    def forward(self, x):\n        y = x * 2\n        lib.k(y)\n"
          "        return torch.relu(y)\n")


def test_violations_come_sorted_with_lines():
    found = allow_list_rule(ast.parse(SOURCE))
    assert [(v.rule, v.line) for v in found] == [("framework_compute", 7), ("framework_compute", 9)]


def test_a_target_without_native_kernels_refuses_the_loader():
    found = allow_list_rule(ast.parse(SOURCE), languages=("npu",))
    assert any(v.rule == "not_allowed" and "native kernels" in v.message and v.line == 4 for v in found)
