"""The structural rules beside the allow-list fire on their hack and stay quiet on honest code, and the
catalogue names every rule any stage emits."""

import ast
import re
from pathlib import Path

import pytest

from benchmarks.kernels.verifier import static_rules as rules
from benchmarks.kernels.verifier.static import allowlist
from benchmarks.kernels.suite import SOLUTIONS_ROOT
from sandboxes.targets import native_check, symbols

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


@pytest.mark.parametrize("rule", [*rules.DEFAULT_RULES, rules.imports_rule])
def test_honest_solution_passes_every_rule(rule):
    assert fired(rule, HONEST) == []


@pytest.mark.parametrize("rule, source, expected", [
    (rules.try_except_rule, "try:\n    pass\nexcept Exception:\n    pass", "try_fallback"),
    (rules.monkeypatch_rule, "import torch\ntorch.allclose = lambda *a: True", "monkeypatch"),
    (rules.monkeypatch_rule, "import torch\ntorch.Tensor.__eq__ = lambda *a: True", "monkeypatch"),
    (rules.annotation_rule, "def f(x: exec('import os') = None):\n    pass", "not_allowed"),
    (rules.annotation_rule, "def f(x) -> torch.set_num_threads(2):\n    pass", "not_allowed"),
    (rules.annotation_rule, "class C:\n    n: (lambda: 1)() = 0", "not_allowed"),
    (rules.annotation_rule, "def f(*, k: (y := 2)):\n    pass", "not_allowed"),
    (rules.imports_rule, "import threading", "imports"),
    (rules.imports_rule, "from multiprocessing import Pool", "imports"),
    (rules.imports_rule, "import time", "imports"),
    (rules.imports_rule, "import ctypes", "imports"),
    (rules.imports_rule, "from . import reference", "imports"),
    (rules.subclass_rule, "import torch\nclass Lazy(torch.Tensor):\n    pass", "lazy_tensor"),
    (rules.state_rule, "CACHE = {}\ndef forward(x):\n    CACHE['y'] = x", "stateful"),
    (rules.state_rule, "def forward(self, x):\n    self.last = x", "stateful"),
    (rules.state_rule, "def f():\n    global y", "stateful"),
    (rules.reference_rule, "m = Model()", "reference_access"),
    (rules.class_state_rule, "class Store:\n    box = []", "stateful"),
    (rules.class_state_rule, "class Tiling:\n    total: int\n    box: list = list()", "stateful"),
    (rules.monkeypatch_rule, "from sandboxes.targets.npu.lang import *\nTilingData.device_copy = None", "monkeypatch"),
    (rules.default_rule, "def kernel(x, y, memo=[]):\n    memo.append(x)", "stateful"),
    (rules.default_rule, "def f(x, *, seen=dict()):\n    pass", "stateful"),
    (rules.default_rule, "BOX = []\ndef f(x, box=BOX):\n    pass", "stateful"),
    (rules.default_rule, "f = lambda x, keep={1}: x", "stateful"),
    (rules.class_value_rule, "class Memo:\n    pass\ndef k(x):\n    holder = Memo\n    holder.items = []", "stateful"),
    (rules.class_value_rule, "class Memo:\n    pass\ndef k(x):\n    for h in (Memo,):\n        h.n = 1", "stateful"),
    (rules.monkeypatch_rule, "from sandboxes.targets.npu.lang import *\ncls = LocalTensor\ncls.GetValue = len",
     "monkeypatch"),
    (rules.monkeypatch_rule, "import math\ndef f():\n    mod = math\n    mod.exp = abs", "monkeypatch"),
    (rules.class_value_rule, "from sandboxes.targets.npu.lang import *\ndef k(x):\n    for c in (LocalTensor,):\n"
                             "        c.buffer = 'UB'", "stateful"),
    (rules.class_value_rule, "from sandboxes.targets.npu.lang import *\ndef patch(c):\n    c.buffer = 'UB'\n"
                             "def k(x):\n    patch(LocalTensor)", "stateful"),
    (rules.class_value_rule, "import sandboxes.targets.npu.lang as lang\ndef k():\n    a, b = lang.LocalTensor, 1",
     "stateful"),
    (rules.class_value_rule, "import math\ndef p(m):\n    m.exp = abs\ndef forward(x):\n    p(math)", "stateful"),
    (rules.module_binding_rule, "import math as np\ndel np", "not_allowed"),
    (rules.module_binding_rule, "class K:\n    np = 0\n    del np", "not_allowed"),
    (rules.module_binding_rule, "class Store:\n    def box(self):\n        pass\n    (box := [])", "stateful"),
    (rules.module_binding_rule, "(CACHE := {})", "stateful"),
    (rules.iterator_rule, "class M:\n    def __init__(self):\n        self.calls = enumerate(range(1 << 40))",
     "stateful"),
    (rules.iterator_rule, "def f(x):\n    g = (i for i in range(3))\n    return next(g)", "stateful"),
    (rules.iterator_rule, "def f(x):\n    yield x", "stateful"),
    (rules.try_except_rule, "def f(x):\n    try:\n        g(x)\n    finally:\n        return x", "try_fallback"),
    (rules.imports_rule, "from torch.utils.model_dump.__main__ import *", "imports"),
    (rules.comprehension_rule, "import torch\ndef f(x):\n    names = [torch for torch in (0,)]", "not_allowed"),
    (rules.class_state_rule, "class M:\n    for shared in ([],):\n        pass", "stateful"),
    (rules.state_rule, "SEEN = []\ndef note(box, n):\n    box += [n]", "stateful"),
])
def test_rule_fires_on_its_hack(rule, source, expected):
    assert expected in fired(rule, source)


def test_imports_depend_on_the_kernel_languages():
    assert rules.allowed_imports(("npu",)) == rules.BASE_IMPORTS + ("sandboxes.targets.npu.lang",)
    assert "triton" not in rules.allowed_imports(("native",))
    assert fired(lambda tree: rules.imports_rule(tree, rules.allowed_imports(("native",))), "import triton") == ["imports"]


def test_every_known_hack_has_an_adversarial_solution():
    expected = " ".join(re.search(r"expect: (.*)", p.read_text()).group(1)
                        for p in SOLUTIONS_ROOT.joinpath("adversarial").rglob("*.py"))
    assert [rule for rule in rules.KNOWN_HACKS if rule not in expected] == []


def test_catalogue_documents_every_rule_the_stages_emit():
    sources = "".join(Path(m.__file__).read_text() for m in (rules, native_check, symbols))
    sources += "".join(p.read_text() for p in Path(allowlist.__file__).parent.glob("*.py"))
    forms = [r'Violation\("(\w+)"', r'flag\([\w.]+, "(\w+)"', r'Refused\("(\w+)"', r'\(\("(\w+)", ', r'return \(?"(\w+)", f?"',
             r'_rejected\("(\w+)"']
    emitted = {rule for form in forms for rule in re.findall(form, sources)}
    emitted |= {rule for pair in re.findall(r'rule = "(\w+)" if [^\n]* else "(\w+)"', sources) for rule in pair}
    emitted |= {rule for rule, _ in allowlist.BANNED_BUILTINS.values()}
    assert {"framework_compute", "native_asm", "native_escape", "native_framework_call", "dynamic_code"} <= emitted
    assert emitted - {"npu_internals"} <= set(rules.KNOWN_HACKS)


def test_classes_used_by_name_pass():
    source = ("import torch.nn as nn\nclass Tiling:\n    N = 4\nclass Model(nn.Module):\n    pass\n"
              "class ModelNew(Model):\n    def __init__(self):\n        super(ModelNew, self).__init__()\n"
              "        self.t = Tiling()\n        self.n = Tiling.N\n        assert isinstance(self.t, Tiling)\n")
    assert fired(rules.class_value_rule, source) == []


def test_imported_classes_and_modules_used_by_name_pass():
    source = ("import torch\nimport torch.nn as nn\nfrom torch import Tensor\nfrom sandboxes.targets.npu.lang import *\n"
              "class ModelNew(nn.Module):\n    def forward(self, x: Tensor) -> torch.Tensor:\n"
              "        nn = min(2, 3)\n        q = TQue(TPosition.VECIN, nn)\n        y = x.to(torch.float32)\n"
              "        return isinstance(x, (Tensor, int)) and type(x) is torch.Tensor\n")
    assert fired(rules.class_value_rule, source) == []


def test_iterators_used_where_they_are_made_pass():
    source = ("def f(xs, r):\n    for i, x in enumerate(reversed(xs) if r else xs):\n        pass\n"
              "    return sum(x * 2 for x in xs), list(zip(xs, xs)), [y for y in map(abs, xs)]")
    assert fired(rules.iterator_rule, source) == []


def test_star_imports_of_other_modules_are_not_imported_by_the_checks():
    assert rules.star_names("torch.utils.model_dump.__main__") == ()
    assert "LocalTensor" in rules.star_names("sandboxes.targets.npu.lang")


def test_deleting_locals_passes():
    assert fired(rules.module_binding_rule, "def f(x):\n    y = x\n    del y\n    return x") == []


def test_constant_defaults_pass():
    source = ("import torch\nTILE = 4096\nSHAPE = (2, 1 << 10)\n"
              "def f(x, n=TILE, shape=SHAPE, scale=-1.5, name='a', dtype=torch.float32, out=None, k=2 * 1024):\n"
              "    pass\ng = lambda x, m=3: x")
    assert fired(rules.default_rule, source) == []
