"""The whole-module pass: parameters take their kinds from call sites, forward's arguments are
tensors, __init__'s are plain data, attributes of self are what __init__ assigned."""

import ast

from benchmarks.kernels.verifier.static.analysis import Analysis
from benchmarks.kernels.verifier.static.check import allow_list_rule
from benchmarks.kernels.verifier.static.kinds import SCALAR, TENSOR, Tag
from benchmarks.kernels.verifier.static.symbols import build_index

HEAD = "import torch\nimport torch.nn as nn\n"


def analysed(source: str) -> Analysis:
    analysis = Analysis(build_index(ast.parse(HEAD + source)), ("native", "triton", "npu"))
    analysis.run()
    return analysis


def rules(source: str) -> list[str]:
    return [v.rule for v in allow_list_rule(ast.parse(HEAD + source))]


def test_helper_parameters_take_the_kinds_of_their_arguments():
    analysis = analysed("def scale(n, t):\n    return n * 2\n"
                        "class ModelNew(nn.Module):\n    def forward(self, x):\n        return scale(x.numel(), x)\n")
    assert analysis.params["scale"] == {"n": SCALAR, "t": TENSOR}
    assert analysis.returns["scale"] == SCALAR and not analysis.found


def test_a_helper_given_a_tensor_may_not_compute_on_it():
    source = ("def scale(n):\n    return n * 2\n"
              "class ModelNew(nn.Module):\n    def forward(self, x):\n        return scale(x)\n")
    assert rules(source) == ["framework_compute"]


def test_init_arguments_are_plain_data_and_attributes_keep_their_kinds():
    analysis = analysed("class ModelNew(nn.Module):\n    def __init__(self, hidden):\n        super().__init__()\n"
                        "        self.hidden = hidden\n        self.weight = nn.Parameter(torch.rand(hidden) + 0.5)\n"
                        "        self.norm = nn.LayerNorm(hidden)\n"
                        "    def forward(self, x):\n        return self.norm.weight.contiguous(), self.hidden * 2\n")
    assert analysis.attrs["ModelNew"]["hidden"] == SCALAR
    assert analysis.attrs["ModelNew"]["weight"] == TENSOR
    assert analysis.attrs["ModelNew"]["norm"].tag is Tag.LAYER
    assert not analysis.found


def test_weights_may_be_prepared_in_init_but_not_bound_as_ops():
    assert rules("class ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                 "        self.w = torch.where(torch.rand(4) > 0.5, torch.ones(4), torch.zeros(4)).t().contiguous()\n"
                 "    def forward(self, x):\n        return x\n") == []
    bound = ("class ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
             "        self.act = torch.nn.functional.relu\n    def forward(self, x):\n        return self.act(x)\n")
    assert "framework_compute" in rules(bound)


def test_nn_module_machinery_and_submodules_outside_init_are_refused():
    found = rules("class Block(nn.Module):\n    def forward(self, x):\n        return x\n"
                  "class ModelNew(nn.Module):\n    def forward(self, x):\n        self.apply(print)\n"
                  "        return Block()(x)\n")
    assert found.count("not_allowed") >= 2


def test_own_submodule_built_in_init_is_called_through_its_forward():
    analysis = analysed("class Block(nn.Module):\n    def forward(self, t):\n        return t * 2\n"
                        "class ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                        "        self.block = Block()\n    def forward(self, x):\n        return self.block(x)\n")
    assert analysis.params["Block.forward"] == {"t": TENSOR}
    assert [v.rule for v in analysis.found] == ["framework_compute"]


def test_a_grid_lambda_sees_plain_numbers_but_no_other_lambda_does():
    grid = ("import triton\n@triton.jit\ndef k(x_ptr, n, BLOCK: triton.language.constexpr):\n    pass\n"
            "class ModelNew(nn.Module):\n    def forward(self, x):\n        n = x.numel()\n"
            "        grid = lambda meta: (triton.cdiv(n, meta['BLOCK']),)\n        k[grid](x, n, BLOCK=64)\n"
            "        return x\n")
    assert rules(grid) == []
    assert "framework_compute" in rules("class ModelNew(nn.Module):\n    def forward(self, x):\n"
                                        "        f = lambda t: t * 2\n        return x\n")


def test_a_nested_grid_function_is_a_grid_like_a_lambda():
    grid = ("import triton\n@triton.jit\ndef k(x_ptr, n, BLOCK: triton.language.constexpr):\n    pass\n"
            "class ModelNew(nn.Module):\n    def forward(self, x):\n        n = x.numel()\n"
            "        def grid(meta):\n            blocks = triton.cdiv(n, meta['BLOCK'])\n            return (blocks,)\n"
            "        k[grid](x, n, BLOCK=64)\n        return x\n")
    assert rules(grid) == []
    called = ("class ModelNew(nn.Module):\n    def forward(self, x):\n        def helper(t):\n            return t\n"
              "        return helper(x)\n")
    assert rules(called) == ["not_allowed"]


def test_init_may_compute_on_its_own_weights_with_math():
    source = ("import math\nclass ModelNew(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
              "        self.weight = nn.Parameter(torch.empty(n, n))\n"
              "        fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)\n"
              "        nn.init.uniform_(self.weight, -1 / math.sqrt(fan_in), 1 / math.sqrt(fan_in))\n"
              "    def forward(self, x):\n        return x\n")
    assert rules(source) == []
