"""Each rule of the hack catalogue fires on its hack and stays quiet on honest code."""

import ast
import re
from pathlib import Path

import pytest

from benchmarks.kernels.verifier import static_rules as rules
from benchmarks.kernels.suite import SOLUTIONS_ROOT

HONEST = '''
import torch
import torch.nn as nn
from sandboxes.targets.native import load_cpp

lib = load_cpp("k", "extern \\"C\\" void f(float* o, const float* x, long n) {}", {"f": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(hidden) + 0.5)

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.f(out, x, x.numel() * 1)
        return out
'''


def fired(rule, source: str) -> list[str]:
    return [v.rule for v in rule(ast.parse(source))]


@pytest.mark.parametrize("rule", rules.DEFAULT_RULES)
def test_honest_solution_passes_every_rule(rule):
    assert fired(rule, HONEST) == []


@pytest.mark.parametrize("rule, source, expected", [
    (rules.framework_compute_rule, "import torch\ndef forward(x):\n    return torch.matmul(x, x)", "framework_compute"),
    (rules.framework_compute_rule, "import torch.nn.functional as F\ndef forward(x):\n    return F.gelu(x)",
     "framework_compute"),
    (rules.framework_compute_rule, "def forward(self, a, b):\n    return a @ b", "framework_compute"),
    (rules.framework_compute_rule, "def forward(self, x):\n    return x.softmax(-1)", "framework_compute"),
    (rules.try_except_rule, "try:\n    pass\nexcept Exception:\n    pass", "try_fallback"),
    (rules.monkeypatch_rule, "import torch\ntorch.allclose = lambda *a: True", "monkeypatch"),
    (rules.monkeypatch_rule, "import torch\ntorch.Tensor.__eq__ = lambda *a: True", "monkeypatch"),
    (rules.calls_rule, "setattr(object, 'x', 1)", "monkeypatch"),
    (rules.imports_rule, "import threading", "imports"),
    (rules.imports_rule, "from multiprocessing import Pool", "imports"),
    (rules.imports_rule, "import time", "imports"),
    (rules.imports_rule, "import ctypes", "imports"),
    (rules.imports_rule, "from . import reference", "imports"),
    (rules.attributes_rule, "import torch\ns = torch.cuda.Stream()", "forbidden_attribute"),
    (rules.attributes_rule, "import sys\nf = sys._getframe(1)", "forbidden_attribute"),
    (rules.attributes_rule, "x = object.__subclasses__()", "forbidden_attribute"),
    (rules.subclass_rule, "import torch\nclass Lazy(torch.Tensor):\n    pass", "lazy_tensor"),
    (rules.state_rule, "CACHE = {}\ndef forward(x):\n    CACHE['y'] = x", "stateful"),
    (rules.state_rule, "def forward(self, x):\n    self.last = x", "stateful"),
    (rules.state_rule, "def f():\n    global y", "stateful"),
    (rules.reference_rule, "m = Model()", "reference_access"),
    (rules.calls_rule, "print('speedup: 150x')", "output"),
    (rules.calls_rule, "import os\nos._exit(0)", "early_exit"),
    (rules.calls_rule, "exec('import os')", "dynamic_code"),
    (rules.calls_rule, "open('task.py').read()", "file_access"),
    (rules.calls_rule, "g = globals()", "introspection"),
    (rules.native_code_rule, "SRC = 'torch::Tensor f(torch::Tensor x) { return at::matmul(x, x); }'",
     "native_framework_call"),
    (rules.native_code_rule, "SRC = 'torch::Tensor f(torch::Tensor x) { return x.relu(); }'", "native_framework_call"),
    (rules.native_code_rule, "SRC = 'void f() { std::thread([]{}).detach(); }'", "native_escape"),
    (rules.native_code_rule, "SRC = 'void f() { omp_set_num_threads(64); }'", "native_escape"),
    (rules.native_code_rule, "SRC = 'void f() { FILE* t = fopen(\"task.py\", \"r\"); }'", "native_escape"),
    (rules.native_code_rule, "SRC = '#pragma omp parallel for num_threads(32) void f() {}'", "native_escape"),
])
def test_rule_fires_on_its_hack(rule, source, expected):
    assert expected in fired(rule, source)


def test_native_rule_allows_allocation():
    source = "SRC = 'torch::Tensor f(torch::Tensor x) { auto o = torch::empty_like(x); return o; }'"
    assert fired(rules.native_code_rule, source) == []


def test_triton_kernels_and_init_are_exempt_from_compute_rule():
    source = ("import triton\nimport torch\n@triton.jit\ndef k(x_ptr, n):\n    y = x_ptr + n\n"
              "class M:\n    def __init__(self, n):\n        self.w = torch.randn(n) * 2\n")
    assert fired(rules.framework_compute_rule, source) == []


def test_npu_kernels_are_exempt_but_forward_arithmetic_is_not():
    source = ("from sandboxes.targets.npu.lang import kernel\n@kernel(core_type='vector')\n"
              "def add(x, y, z, n):\n    offset = n * 2\n"
              "class ModelNew:\n    def forward(self, x):\n        return x * 2\n")
    violations = rules.framework_compute_rule(ast.parse(source))
    assert [(v.rule, v.line) for v in violations] == [("framework_compute", 7)]


def test_every_known_hack_has_an_adversarial_solution():
    expected = " ".join(re.search(r"expect: (.*)", p.read_text()).group(1)
                        for p in (SOLUTIONS_ROOT / "adversarial").glob("*.py"))
    assert [rule for rule in rules.KNOWN_HACKS if rule not in expected] == []


def test_catalogue_documents_every_rule_the_rules_emit():
    sources = Path(rules.__file__).read_text()
    emitted = set(re.findall(r'Violation\("(\w+)"', sources))
    emitted |= {rule for rule, _ in rules.FORBIDDEN_CALLS.values()}
    assert emitted <= set(rules.KNOWN_HACKS)
