"""Kernel bodies: the kernel language, math, constants and own device code only."""

import ast

import pytest

from benchmarks.kernels.verifier.static.allowlist import NPU_LANG
from benchmarks.kernels.verifier.static.check import allow_list_rule
from benchmarks.kernels.verifier.static.device import LANGUAGE_MODULES, foreign_module

TRITON = "import torch\nimport math\nimport triton\nimport triton.language as tl\nSCALE = 2.0\nTABLE = []\n"
NPU = "import torch\nfrom sandboxes.targets.npu.lang import *\nLIMIT = 4\n"


def triton_rules(body: str) -> list[str]:
    source = TRITON + "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n" + _indent(body)
    return [v.rule for v in allow_list_rule(ast.parse(source))]


def npu_rules(body: str, extra: str = "") -> list[str]:
    source = NPU + extra + "@kernel\ndef k(x, y, tiling):\n" + _indent(body)
    return [v.rule for v in allow_list_rule(ast.parse(source))]


def _indent(body: str) -> str:
    return "\n".join("    " + line for line in body.splitlines()) + "\n"


def test_triton_bodies_use_tl_freely():
    body = ("offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\nv = tl.load(x_ptr + offs, mask=offs < n)\n"
            "v = v.to(tl.float32) * SCALE + math.pi\nfor i in range(2):\n    v = tl.maximum(v, 0.0)\n"
            "tl.store(x_ptr + offs, v.to(x_ptr.dtype.element_ty), mask=offs < n)")
    assert triton_rules(body) == []


@pytest.mark.parametrize("body, rule", [
    ("v = torch.relu(x_ptr)", "not_allowed"),
    ("raw = x_ptr.handle", "not_allowed"),
    ("v = x_ptr.__class__", "forbidden_attribute"),
    ("v = getattr(x_ptr, 'handle')", "dynamic_code"),
    ("TABLE.append(1)", "stateful"),
    ("print(n)", "output"),
    ("import os", "imports"),
    ("v = np.ravel(x_ptr)", "not_allowed"),  # the interpreter puts its np into the kernel's module
    ("v = tl.extra.modules['numpy']", "not_allowed"),  # sys.modules, reached through triton.language.extra
    ("v = int(str(tl.load(x_ptr)).split()[0])", "not_allowed"),  # the interpreter prints a value's data
    ("v = f'{n}'", "not_allowed"),
    ("v = tl.target_info.driver.active", "not_allowed"),  # reading it raises without a GPU
    ("text = '%s' % (tl.load(x_ptr),)", "not_allowed"),  # the same print, through %-formatting
    ("v = int(tl.load(x_ptr))", "not_allowed"),  # a loaded value as a Python int, for Python to compute on
    ("v = max([tl.load(x_ptr), 0])", "not_allowed"),  # a Python reduction over loaded values
    ("v = max(0, *tl.load(x_ptr))", "not_allowed"),  # the same, spread into the call
    ("f = int\nv = f(tl.load(x_ptr))", "not_allowed"),  # a builtin under another name
    ("v = list(tl.load(x_ptr))", "not_allowed"),  # a block's values listed for Python
    ("h = [tl.float32][0]\nh.T = 1", "stateful"),  # state hung on a language object every program shares
    ("v = range(4294967296)[tl.load(x_ptr)]", "not_allowed"),  # a loaded value's bits as a Python int, by indexing
    ("v = (1.0, 2.0)[tl.load(x_ptr)]", "not_allowed"),  # a table looked up by data, in Python
    ("v = math.fsum([tl.load(x_ptr + j) for j in range(4)])", "not_allowed"),  # Python's sum of a row
    ("v = math.ldexp(tl.load(x_ptr), 3)", "not_allowed"),
    ("v = [tl.load(x_ptr + j) for j in range(BLOCK)]", "not_allowed"),  # the compiler has no comprehensions
    ("v = len(range(tl.load(x_ptr)))", "not_allowed"),  # a loaded count as a Python int
    ("v = range(tl.load(x_ptr))", "not_allowed"),  # a range of data, not a loop's bounds
    ("v = pow(2, tl.load(x_ptr))", "not_allowed"),
    ("f = math.fsum\nv = f((tl.load(x_ptr), 1.0))", "not_allowed"),  # math held, then called on values
])
def test_triton_body_refusals(body, rule):
    assert rule in triton_rules(body)


def test_triton_bodies_may_use_builtins_on_constants_and_min_of_several_values():
    body = ("m = min(n - 1, BLOCK)\nlow = float('-inf')\nsize = int(BLOCK // 2)\nfor start in range(0, n, BLOCK):\n"
            "    v = abs(tl.load(x_ptr + start))\nfor i in range(tl.load(x_ptr)):\n    m = m + 1\n"
            "w = tl.load(x_ptr + tl.arange(0, BLOCK))[:, None] * math.log2(BLOCK) * math.pi")
    assert triton_rules(body) == []  # data-dependent loop bounds, static slices and math on constexpr compile


def test_an_npu_helper_may_not_set_attributes_of_its_parameters():
    extra = "def stash(holder):\n    holder.items = []\n\n\n"
    assert "stateful" in npu_rules("stash(TPosition.VECCALC)", extra)


def test_npu_bodies_use_the_language_and_own_classes():
    extra = ("class Tiling(TilingData):\n    total: int\n\n\nclass Worker:\n    def __init__(self, x):\n"
             "        self.gm = GlobalTensor()\n        self.gm.SetGlobalBuffer(x)\n")
    body = "start, count = BlockSpan(tiling.total)\nWorker(x[start])\nn = min(LIMIT, count) * 2"
    assert npu_rules(body, extra) == []


@pytest.mark.parametrize("body, rule", [
    ("y.base[:] = x.base", "npu_internals"),
    ("v = torch.zeros(4)", "not_allowed"),
    ("v = x._addr", "forbidden_attribute"),
    ("v = eval('1')", "dynamic_code"),
    ("v = tiling.x.numpy().dot(y)", "not_allowed"),  # a host tensor that reached a kernel
    ("v = Store.box[-1]", "stateful"),
    ("v = tiling.x.numpy()", "not_allowed"),  # although the solution defines an attribute numpy (below)
])
def test_npu_body_refusals(body, rule):
    assert rule in npu_rules(body, "class Store:\n    box = []\n\n    def __init__(self):\n        self.numpy = 1\n")


def test_module_level_tensors_and_libraries_do_not_reach_kernels():
    assert "not_allowed" in npu_rules("v = SCRATCH", "SCRATCH = torch.ones(4)\n")


@pytest.mark.parametrize("binding", ["for np in ():\n    pass\n", "if False:\n    np = 0\n",
                                     "while False:\n    np = 0\n", "np: int\n"])
def test_names_bound_only_sometimes_do_not_reach_kernels(binding):
    """The interpreter fills a kernel module's unbound names with its own (numpy's np): a kernel reads only names
    every run of the module binds."""
    source = TRITON + binding + "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n    v = np.ravel(x_ptr)\n"
    assert "not_allowed" in [v.rule for v in allow_list_rule(ast.parse(source))]
    assert "not_allowed" not in triton_rules("v = tl.load(x_ptr) * SCALE")


def test_paths_through_the_languages_own_imports_are_foreign():
    triton_modules, npu_modules = LANGUAGE_MODULES["triton"], LANGUAGE_MODULES["npu"]
    assert foreign_module("triton.language.core.builtins", triton_modules) == "builtins"
    assert foreign_module("triton.knobs.subprocess", triton_modules) == "triton.knobs"
    assert foreign_module("triton.runtime.interpreter.np", triton_modules) == "triton.runtime"
    for path in ("triton.language.arange", "triton.cdiv", "triton.language.extra.libdevice.exp", "math.exp"):
        assert foreign_module(path, triton_modules) is None, path
    assert foreign_module(NPU_LANG + ".DataCopy", npu_modules) is None


def test_functions_and_classes_the_language_imported_are_foreign_too():
    triton_modules = LANGUAGE_MODULES["triton"]
    assert foreign_module("triton.language.extra.module_from_spec", triton_modules) == "_frozen_importlib"
    assert foreign_module("triton.language.core.wraps", triton_modules) == "functools"
    assert foreign_module("triton.language.PropagateNan.ALL", triton_modules) is None  # the IR enum tl re-exports
    assert "dict" in foreign_module("triton.language.extra.modules", triton_modules)
    assert foreign_module("triton.language.float32", triton_modules) is None


def test_a_helpers_constexpr_parameters_take_static_values_only():
    helper = "@triton.jit\ndef total(a: tl.constexpr, b: tl.constexpr):\n    return a + b\n\n\n"
    source = TRITON + helper + "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n" + _indent(
        "v = total(BLOCK, b=2)\nw = total(tl.load(x_ptr), 1)")  # the second passed data as a constant
    assert [v.rule for v in allow_list_rule(ast.parse(source))] == ["not_allowed"]
