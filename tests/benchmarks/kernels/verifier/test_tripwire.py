"""The runtime tripwire: ATen calls attributed to the solution's code, allowed or forbidden; end to end, the
framework-compute hacks of builtin:adversarial with the static checks off are refused by it on every target."""

import pytest
import torch
from torch._C import DispatchKey, DispatchKeySet

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.tripwire import Tripwire, describe, reorders, trusted_roots
from tests.benchmarks.kernels.verifier.verdicts import ADVERSARIAL, matches

SOLUTION = '''
import torch
import torch.nn.functional as F

def forward(x):
    out = torch.empty_like(x)
    y = x.t().clone(memory_format=torch.preserve_format).t().view(-1)
    z = F.gelu(x)
    return out, y, z, x.sum()
'''


def run(source, filename, trusted=("/nowhere/",), casts_are_compute=False):
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    x, wire = torch.randn(4, 8), Tripwire(trusted, casts_are_compute)
    with wire:
        namespace["forward"](x)
    return wire.report()


def test_allocation_views_and_copies_are_allowed_and_compute_is_counted_with_its_line():
    report = run(SOLUTION, "/work/solution.py")
    assert {"empty_like", "t", "clone", "view"} <= set(report["allowed"])
    assert report["forbidden"] == {"gelu": 1, "sum": 1}  # F.gelu goes through torch's own frames
    assert report["sites"] == {"gelu": "solution.py:8", "sum": "solution.py:9"}
    assert describe(report) == "aten.gelu x1 (from solution.py:8), aten.sum x1 (from solution.py:9)"


REORDERING = '''
import torch

def forward(x):
    plain = [x.contiguous(), x[:, :4].contiguous(), x.double(), torch.empty(4, 8).copy_(x), x.clone()]
    packed = x.view(1, 4, 8, 1).to(memory_format=torch.channels_last)
    transposed = x.t().contiguous()
    written = torch.empty(8, 4).copy_(x.t())
    return plain, packed, transposed, written
'''


def test_a_copy_that_reorders_memory_is_compute_and_plain_copies_are_not():
    report = run(REORDERING, "/work/solution.py")
    reordering = " (a copy that reorders memory: a transpose or layout change)"
    assert report["forbidden"] == {"_to_copy" + reordering: 1, "clone" + reordering: 1, "copy_" + reordering: 1}
    assert report["allowed"]["copy_"] == 1 and report["allowed"]["clone"] == 2 and report["allowed"]["_to_copy"] == 1


CASTS = '''
import torch

def forward(x):
    return x.to(torch.float16), x.double(), torch.empty(4, 8, dtype=torch.float16).copy_(x), x.to(torch.float32)
'''


def test_where_the_clock_sees_only_kernels_a_cast_is_compute():
    """On the simulated NPU an input halved to float16 in forward was read by the kernel at half the bytes, the cast
    itself uncharged (argmax_rows 1.63x, roofline fraction 1.007)."""
    cast = " (a copy that changes the dtype: compute the simulated clock does not see)"
    assert run(CASTS, "/work/solution.py", casts_are_compute=True)["forbidden"] == {"_to_copy" + cast: 2,
                                                                                     "copy_" + cast: 1}
    assert run(CASTS, "/work/solution.py")["forbidden"] == {}  # timed for real, a cast is the solution's own cost


def test_a_strided_slice_copied_element_by_element_is_a_gather():
    x = torch.arange(32.0).view(4, 8)
    contiguous = {"memory_format": torch.contiguous_format}
    assert reorders("clone", (x[:, 1],), contiguous)  # a column made contiguous: a transpose, one slice at a time
    assert reorders("copy_", (torch.empty(8, 4)[:, 0], x[0]), {})  # a row scattered into a column
    assert not reorders("clone", (x[1],), contiguous) and not reorders("clone", (x[:, :4],), contiguous)
    assert not reorders("copy_", (torch.empty(4, 8)[:, :4], x[:, 4:]), {})  # rows into rows
    assert not reorders("clone", (x.t(),), {}) and not reorders("_to_copy", (x.t(),), {"dtype": torch.float64})


def test_calls_made_by_trusted_code_are_not_the_solutions():
    report = run(SOLUTION, "/opt/ours/helpers.py", trusted=("/opt/ours/",))
    assert report == {"allowed": {}, "forbidden": {}, "sites": {}}


def test_trusted_roots_are_our_packages():
    roots = trusted_roots()
    assert any(root.endswith("/sandboxes/") for root in roots) and any(root.endswith("/benchmarks/") for root in roots)


def test_no_forbidden_operator_means_an_empty_description():
    assert describe({"allowed": {"empty": 3}, "forbidden": {}, "sites": {}}) == ""


CPU_HACKS = ("L1__relu__alias_init_attribute.py", "L1__relu__module_member_relu.py", "L1__relu__tensor_dunders.py",
             "L1__relu__renamed_getattr.py")
OTHER_HACKS = (("npu", "L1__relu__npu_torch_on_host.py"), ("gpu", "L1__relu__triton_torch_on_host.py"))


@pytest.mark.parametrize("name", CPU_HACKS)
def test_framework_compute_that_gets_past_the_static_checks_trips_the_wire_on_cpu(name, tiny_relu, cpu_target,
                                                                                  sandbox, brief, pool):
    result = evaluate(tiny_relu, (ADVERSARIAL / name).read_text(), cpu_target, sandbox=sandbox, config=brief,
                      runner=pool)
    assert matches(result, "rejected", "tripwire", "torch compute run by the solution during forward"), result.reason
    assert result.evidence["tripwire"]["forbidden"] and "solution.py:" in result.reason


@pytest.mark.parametrize("target_name,name", OTHER_HACKS)
def test_framework_compute_beside_an_npu_or_triton_kernel_trips_the_wire(target_name, name, request, tiny_relu,
                                                                         sandbox, brief, pool):
    target = request.getfixturevalue(f"{target_name}_target")
    result = evaluate(tiny_relu, (ADVERSARIAL / target_name / name).read_text(), target, sandbox=sandbox,
                      config=brief, runner=pool)
    assert matches(result, "rejected", "tripwire", "torch compute run by the solution during forward"), result.reason


def test_a_flagging_tripwire_lets_the_row_through_with_a_flag(tiny_relu, cpu_target, sandbox, brief, pool):
    config = brief.model_copy(update={"tripwire": "flag"})
    result = evaluate(tiny_relu, (ADVERSARIAL / CPU_HACKS[1]).read_text(), cpu_target, sandbox=sandbox,
                      config=config, runner=pool)
    assert result.correct and "tripwire" in result.flags


def test_an_output_made_with_the_python_key_excluded_counts_as_forbidden():
    """Native code that excluded the Python dispatch key around ATen's reordering copy hid it from the tripwire."""
    x, wire = torch.randn(4, 8), Tripwire(("/nowhere/",))
    with wire:
        seen = torch.empty_like(x)
        with torch._C._ExcludeDispatchKeyGuard(DispatchKeySet(DispatchKey.Python)):
            hidden = x.t().contiguous()
    wire.after_call(seen, [x])
    assert wire.report()["forbidden"] == {}
    wire.after_call(x[1:], [x])  # a view of an input is not made unseen
    wire.after_call(hidden, [x])
    assert wire.report()["forbidden"] == {"an output made out of the tripwire's sight (dispatch keys excluded)": 1}
    guard = torch._C._ExcludeDispatchKeyGuard(DispatchKeySet(DispatchKey.Python))
    guard.__enter__()
    try:
        wire.after_call(seen, [x])
    finally:
        guard.__exit__(None, None, None)
    assert "the Python dispatch key excluded after the call" in wire.report()["forbidden"]
