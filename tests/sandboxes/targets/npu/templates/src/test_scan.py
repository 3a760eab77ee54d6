"""The scan family on the simulator: prefix sums (inclusive, exclusive, reversed, masked) and products."""

import sys
import types

import pytest
import torch

from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec


def scan(attrs: dict, args=("x",)):
    module = types.ModuleType("scan_kernel")
    sys.modules[module.__name__] = module
    source = render_kernel(OpSpec("scan", "scan", list(args), attrs), {"TILE_LENGTH": 1024, "BLOCK_DIM": 3})
    exec(compile(source, "rendered.py", "exec"), module.__dict__)
    return module.run_scan


@pytest.mark.parametrize("attrs,fn", [
    ({}, lambda x: x.cumsum(1)),
    ({"reverse": True}, lambda x: x.flip(1).cumsum(1).flip(1)),
    ({"exclusive": True}, lambda x: torch.cat([torch.zeros(x.shape[0], 1), x[:, :-1].cumsum(1)], 1))])
def test_prefix_sums_over_chunked_rows(attrs, fn):
    x = torch.randn(4, 2500)
    torch.testing.assert_close(scan(attrs)(x), fn(x), atol=1e-4, rtol=1e-4)


def test_prefix_sums_of_masked_elements():
    x, mask = torch.randn(3, 1500), torch.rand(3, 1500) > 0.5
    torch.testing.assert_close(scan({}, ("x", "mask"))(x, mask), (x * mask).cumsum(1), atol=1e-4, rtol=1e-4)


def test_prefix_products_keep_signs_and_zeros():
    x = 1 + 0.05 * torch.randn(3, 2100)
    x[:, ::7] *= -1
    x[1, 1800] = 0.0
    got = scan({"scan": "prod"})(x)
    want = x.cumprod(1)
    torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-3)
    assert torch.all(got[1, 1800:] == 0)
