"""The runtime tripwire: ATen calls attributed to the solution's code, allowed or forbidden."""

import torch

from benchmarks.kernels.verifier.runner.tripwire import Tripwire, describe, trusted_roots

SOLUTION = '''
import torch
import torch.nn.functional as F

def forward(x):
    out = torch.empty_like(x)
    y = x.t().contiguous().view(-1)
    z = F.gelu(x)
    return out, y, z, x.sum()
'''


def run(source, filename, trusted=("/nowhere/",)):
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    x, wire = torch.randn(4, 8), Tripwire(trusted)
    with wire:
        namespace["forward"](x)
    return wire.report()


def test_allocation_views_and_copies_are_allowed_and_compute_is_counted_with_its_line():
    report = run(SOLUTION, "/work/solution.py")
    assert {"empty_like", "t", "clone", "view"} <= set(report["allowed"])
    assert report["forbidden"] == {"gelu": 1, "sum": 1}  # F.gelu goes through torch's own frames
    assert report["sites"] == {"gelu": "solution.py:8", "sum": "solution.py:9"}
    assert describe(report) == "aten.gelu x1 (from solution.py:8), aten.sum x1 (from solution.py:9)"


def test_calls_made_by_trusted_code_are_not_the_solutions():
    report = run(SOLUTION, "/opt/ours/helpers.py", trusted=("/opt/ours/",))
    assert report == {"allowed": {}, "forbidden": {}, "sites": {}}


def test_trusted_roots_are_our_packages():
    roots = trusted_roots()
    assert any(root.endswith("/sandboxes/") for root in roots) and any(root.endswith("/benchmarks/") for root in roots)


def test_no_forbidden_operator_means_an_empty_description():
    assert describe({"allowed": {"empty": 3}, "forbidden": {}, "sites": {}}) == ""
