"""The Target seam's plain records."""

import pytest
import torch

from sandboxes.errors import UserError
from sandboxes.targets.base import Availability, ExtensionSpec, RuntimeHooks, Violation


def test_digest_depends_on_source_and_salt_only():
    spec = ExtensionSpec(kind="cpp", name="k", cpp_sources=("int x;",), options={"functions": {"f": ["int"]}})
    same = ExtensionSpec(kind="cpp", name="k", cpp_sources=("int x;",), options={"functions": {"f": ["int"]}})
    other = ExtensionSpec(kind="cpp", name="k", cpp_sources=("int y;",), options={"functions": {"f": ["int"]}})
    assert spec.digest() == same.digest()
    assert spec.digest() != other.digest()
    assert spec.digest("g++ 12") != spec.digest("g++ 13")


def test_spec_round_trips_through_json():
    spec = ExtensionSpec(kind="load_inline", name="m", cpp_sources=("a", "b"), functions=("f",),
                         extra_cflags=("-O3",), options={"with_cuda": None, "extra_include_paths": []})
    assert ExtensionSpec.from_json(spec.to_json()) == spec


def test_availability_without_compiler_is_a_user_error():
    with pytest.raises(UserError, match="no nvcc"):
        Availability(False, False, False, "no nvcc").require_compile()
    Availability(True, False, False, "not timed: no GPU").require_compile()


def test_default_hooks_run_on_cpu_without_simulated_time():
    hooks = RuntimeHooks()
    output, simulated = hooks.solution_call(torch.nn.ReLU(), [torch.tensor([-1.0, 2.0])])
    assert output.tolist() == [0.0, 2.0] and simulated is None
    assert hooks.to_device([torch.zeros(2), 3])[1] == 3
    assert hooks.device_timer() is None and hooks.classify_error(ValueError()) is None


def test_violation_text_names_rule_and_line():
    assert str(Violation("imports", 3, "no os")) == "[imports] line 3: no os"
