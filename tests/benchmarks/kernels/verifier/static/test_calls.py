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


@pytest.mark.parametrize("call", ["p = launch(k, 8, x, y)\np.__init__('k', 'c', 1.0, 8, 8, 0.0, 0.0, 0.0, 0.0, {}, 0, 0, 0, 0)",
                                  "p = launch(k, 8, x, y)\nagain = p.__init__\nagain()"])
def test_init_on_an_object_is_refused(call):
    rules = npu_rules(f"y = torch.empty_like(x)\n{call}\nreturn y")
    assert [rule for rule, _ in rules] == ["forbidden_attribute"] and "__init__ may be called only" in rules[0][1]


def test_init_on_super_or_a_class_is_a_constructor_call():
    source = ("import torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n    def __init__(self):\n"
              "        super().__init__()\n\n\nclass Other(nn.Module):\n    def __init__(self):\n"
              "        nn.Module.__init__(self)\n")
    assert allow_list_rule(ast.parse(source), languages=("npu",)) == []


HOST = '''import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale=1.0):
        super().__init__()
        self.scale = scale
        self.count = abs(torch.zeros(()))

    @staticmethod
    def same(t):
        return t

    def forward(self, x):
        out = torch.empty_like(x)
'''


PICK = "def pick(*items):\n    return items[1]\n\n\n"
BUMP = "def bump(box, n):\n    box.calls = n\n\n\n"


@pytest.mark.parametrize("helpers,body", [
    ("", "ValueError(x).args[0].numpy().clip(0, None, out=out.numpy())"),  # an exception's args hand the tensor back
    ("", "self.same(out).numpy()"),  # a staticmethod called through self: its parameter got no kind, its return none
    ("", "ModelNew.__init__(self, x)"),  # the constructor's rules (scalar parameters) applied to the inputs
    (PICK, "pick(0, x).numpy()"),  # *items took only the first argument's kind
    (BUMP, "bump(self, 1)"),  # a helper given self stores state on the module
    (BUMP + "class Holder:\n    pass\n\n\n", "bump(Holder(), 1)"),  # or on any object of the solution's
    ("", "self.count.fill_(1)"),  # abs() of a tensor in __init__ was a plain number
])
def test_ways_to_pass_a_tensor_off_as_plain_data_are_refused(helpers, body):
    source = HOST.replace("class ModelNew", helpers + "class ModelNew") + f"        {body}\n        return out\n"
    assert allow_list_rule(ast.parse(source), languages=("native",)) != []
    assert allow_list_rule(ast.parse(HOST + "        return out\n"), languages=("native",)) == []


def test_a_chain_of_helpers_longer_than_a_few_rounds_is_followed_to_the_end():
    chain = "".join(f"def h{i}(p):\n    if p is None:\n        return 0\n    return h{i + 1}(p)\n" for i in range(26))
    source = HOST.replace("class ModelNew", chain + "def h26(p):\n    return p\n\n\nclass ModelNew")
    source += "        h0(x).numpy()\n        return out\n"
    assert "framework_compute" in [v.rule for v in allow_list_rule(ast.parse(source), languages=("native",))]


def test_nested_loops_over_enumerate_are_checked_in_linear_time():
    """bind_loop evaluated enumerate's argument twice: 30 nested comprehensions took hours."""
    nested = "x"
    for _ in range(30):
        nested = f"[v for i, v in enumerate({nested})]"
    source = HOST + f"        y = {nested}\n        return out\n"
    allow_list_rule(ast.parse(source), languages=("native",))
