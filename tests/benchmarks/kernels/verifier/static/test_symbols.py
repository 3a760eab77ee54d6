"""The module index: imports resolve to dotted paths as the module's code reaches them, device roots are
recognised by what their decorator resolves to, and reachability splits host from device code."""

import ast

from benchmarks.kernels.verifier.static.symbols import build_index, dotted, reachability

SOURCE = '''
import torch.nn.functional as F
import triton
import triton.language as tl
from sandboxes.targets.npu.lang import *


@triton.jit
def add_kernel(x_ptr, n, BLOCK: tl.constexpr):
    helper_device(x_ptr)


def helper_device(p):
    pass


@kernel
def npu_kernel(x, tiling):
    Worker(x).Process()


class Worker:
    def Process(self):
        shared()


def shared():
    pass


def host_helper(x):
    shared()
    return x


class ModelNew:
    def forward(self, x):
        return host_helper(x)


kernel = 3
'''


def index():
    return build_index(ast.parse(SOURCE))


def test_aliases_resolve_to_dotted_paths():
    found = index()
    assert found.resolve(ast.parse("F.relu", mode="eval").body) == "torch.nn.functional.relu"
    assert found.resolve(ast.parse("tl.load", mode="eval").body) == "triton.language.load"
    assert dotted(ast.parse("a.b.c", mode="eval").body) == "a.b.c"
    assert dotted(ast.parse("f().b", mode="eval").body) is None


def test_a_name_rebound_later_still_resolves_where_the_decorator_stands():
    found = index()
    assert found.device == {"add_kernel": "triton", "npu_kernel": "npu"}
    assert found.resolve(ast.Name(id="kernel")) is None  # at call time `kernel` is the module's 3


def test_a_lookalike_decorator_is_not_a_device_root():
    found = build_index(ast.parse("def jit(f):\n    return f\n@jit\ndef k(x):\n    return x * 2\n"))
    assert found.device == {}


def test_device_code_is_what_only_kernels_reach_and_shared_helpers_are_both():
    host, device = reachability(index())
    assert device["triton"] == {"add_kernel", "helper_device"}
    assert device["npu"] == {"npu_kernel", "Worker", "shared"}
    assert {"host_helper", "ModelNew", "shared"} <= host
    assert not host & {"add_kernel", "npu_kernel", "helper_device", "Worker"}


def test_methods_and_bases_through_own_classes():
    found = build_index(ast.parse("import torch.nn as nn\nclass A(nn.Module):\n    def f(self):\n        pass\n"
                                  "class B(A):\n    pass\n"))
    assert found.find_method("B", "f")[0] == "A"
    assert found.base_paths("A") == ["torch.nn.Module"] and found.own_bases("B") == ["A"]


def test_names_bound_inside_module_level_blocks_are_not_surely_bound():
    found = build_index(ast.parse("import math\nA = 1\nB: int\nfor C in ():\n    pass\nif A:\n    D = 2\n"
                                  "def f():\n    pass\nclass K:\n    pass\n"))
    assert found.surely_bound == {"math", "A", "f", "K"}
    assert {"C", "D"} <= set(found.bindings)


def test_own_bases_are_classes_defined_before():
    found = build_index(ast.parse("class A(B):\n    pass\nclass B(A):\n    pass\nclass C(B):\n    pass\n"))
    assert (found.own_bases("A"), found.own_bases("B"), found.own_bases("C")) == ([], ["A"], ["B"])
