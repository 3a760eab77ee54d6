"""The module's top level and class bodies: imported names, decorators, bases and hook methods."""

import ast

import pytest

from benchmarks.kernels.verifier.static.check import allow_list_rule

HEAD = "import torch\nimport torch.nn as nn\nimport triton\n"
MODEL = "\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        return x\n"


def rules(source: str) -> list[str]:
    return [v.rule for v in allow_list_rule(ast.parse(HEAD + source + MODEL))]


@pytest.mark.parametrize("source, rule", [
    ("from torch import relu\n", "framework_compute"),
    ("from torch import importlib\n", "forbidden_attribute"),
    ("from torch.nn.functional import *\n", "not_allowed"),
    ("relu = torch.relu\n", "framework_compute"),
    ("lookup = getattr\n", "dynamic_code"),
    ("BUFFER = torch.empty(8)\n", "stateful"),
    ("def cached(f):\n    return f\n@cached\ndef helper(x):\n    return x\n", "not_allowed"),
    ("class Fast(nn.Linear):\n    pass\n", "not_allowed"),
    ("class Meta(nn.Module, metaclass=type):\n    pass\n", "not_allowed"),
    ("class Hook(nn.Module):\n    def __getattr__(self, name):\n        return 1\n", "forbidden_attribute"),
    ("class Holder:\n    op = torch.relu\n", "framework_compute"),
    ("def helper(x, fn=torch.relu):\n    return x\n", "framework_compute"),
])
def test_top_level_refusals(source, rule):
    assert rule in rules(source)


@pytest.mark.parametrize("source", [
    "import math\nBLOCK = 1024\nHALF = BLOCK // 2\nSOURCE = 'x' + 'y'\nDTYPE = torch.float32\n",
    "@triton.jit\ndef k(x_ptr, n, BLOCK: triton.language.constexpr):\n    pass\n",
    "@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])\n@triton.jit\n"
    "def k(x_ptr, n, BLOCK: triton.language.constexpr):\n    pass\n",
    "class Holder:\n    SIZE = 4\n    @staticmethod\n    def size():\n        return Holder.SIZE\n",
    "if __name__ == '__main__':\n    pass\n",
])
def test_top_level_that_passes(source):
    assert rules(source) == []


def test_a_name_defined_later_does_not_hide_an_import_earlier():
    source = ("from sandboxes.targets.npu.lang import *\n@kernel\ndef k(x, tiling):\n    pass\nkernel = 3\n"
              "class ModelNew(nn.Module):\n    def forward(self, x):\n        launch(k, 1, x, x)\n        return x\n")
    assert [v.rule for v in allow_list_rule(ast.parse("import torch.nn as nn\n" + source))] == []
