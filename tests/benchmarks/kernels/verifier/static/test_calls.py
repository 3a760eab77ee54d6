"""Host calls: an NPU launch takes the kernel, the block count and the kernel's arguments, nothing else."""

import ast

import pytest

from benchmarks.kernels.verifier.static.check import allow_list_rule

NPU = '''import torch
import torch.nn as nn
from sandboxes.targets.npu.lang import *


class Chip:
    hbm_bytes_per_cycle = 1e12

    def cores_for(self, kind):
        return 48


@kernel
def k(x, y):
    pass


go = launch
'''


def npu_rules(forward_body: str) -> list[tuple[str, str]]:
    body = "\n".join("        " + line for line in forward_body.splitlines())
    source = NPU + f"class ModelNew(nn.Module):\n    def forward(self, x):\n{body}\n"
    return [(v.rule, v.message) for v in allow_list_rule(ast.parse(source), languages=("npu",))]


def test_a_launch_with_positional_arguments_passes():
    assert npu_rules("y = torch.empty_like(x)\nlaunch(k, 8, x, y)\ngo(k, 8, x, y)\nreturn y") == []


@pytest.mark.parametrize("call", ["launch(k, 8, x, y, chip=Chip())", "go(k, 8, x, y, chip=self)",
                                  "launch(k, 8, x, y, trace=True)", "launch(k, 8, x, y, **{'chip': Chip()})"])
def test_a_launch_with_keyword_arguments_is_refused(call):
    found = npu_rules(f"y = torch.empty_like(x)\n{call}\nreturn y")
    assert [rule for rule, _ in found] == ["not_allowed"] and "keyword" in found[0][1]
