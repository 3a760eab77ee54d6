"""Static prediction of native builds matches what the solution asks for at run time."""

import types

import pytest

from benchmarks.kernels.verifier.prebuild import predicted_specs
from benchmarks.kernels.suite import SOLUTIONS_ROOT
from sandboxes.targets import native

CPU_REFERENCES = sorted((SOLUTIONS_ROOT / "reference" / "cpu").glob("*.py"))


@pytest.mark.parametrize("path", CPU_REFERENCES[:6] + [SOLUTIONS_ROOT / "reference" / "cpu" / "L1__square.py"],
                         ids=lambda p: p.stem)
def test_prediction_equals_the_runtime_request(path, tmp_path):
    resolver = native.ExtensionResolver(tmp_path, "salt")
    native.activate(resolver)
    exec(compile(path.read_text(), str(path), "exec"), types.ModuleType("solution").__dict__)
    assert predicted_specs(path.read_text()) == [(spec, True) for spec in resolver.pending]


def test_dynamic_arguments_are_not_guessed():
    source = "from sandboxes.targets.native import load_cpp\nimport math\nlib = load_cpp(str(math.pi), 'x', {})\n"
    assert predicted_specs(source) == []
    assert predicted_specs("def (:") == []


def test_folding_follows_module_constants_and_concatenation():
    source = ("from torch.utils.cpp_extension import load_inline\nHEAD = '#include <x>\\n'\nBODY = HEAD + 'int f();'\n"
              "ext = load_inline(name='m', cpp_sources=[BODY], functions=['f'], extra_cflags=['-O3'])\n")
    ((spec, certain),) = predicted_specs(source)
    assert certain and spec.cpp_sources == ("#include <x>\nint f();",) and spec.extra_cflags == ("-O3",)


def test_calls_inside_functions_or_branches_are_not_certain():
    source = ("from sandboxes.targets.native import load_cpp\nif False:\n    a = load_cpp('a', 'x', {})\n"
              "def build():\n    return load_cpp('b', 'y', {})\n")
    assert [(spec.name, certain) for spec, certain in predicted_specs(source)] == [("a", False), ("b", False)]
