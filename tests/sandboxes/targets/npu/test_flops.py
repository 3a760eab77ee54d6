"""The function-mode FLOP counter agrees with torch's FlopCounterMode and never imports torch._dynamo."""

import subprocess
import sys

import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from sandboxes.targets.npu.flops import count_flops

CASES = [
    (torch.nn.Linear(64, 32), [torch.randn(8, 64)]),
    (torch.nn.Conv2d(3, 8, 3, padding=1), [torch.randn(2, 3, 16, 16)]),
    (torch.nn.Conv2d(8, 8, 3, groups=8), [torch.randn(1, 8, 10, 10)]),
    (torch.nn.ConvTranspose2d(4, 6, 2, stride=2), [torch.randn(1, 4, 5, 5)]),
    (lambda a, b: a @ b, [torch.randn(3, 4, 5), torch.randn(3, 5, 7)]),
    (lambda a, b, c: torch.addmm(c, a, b), [torch.randn(4, 5), torch.randn(5, 6), torch.randn(4, 6)]),
]


@pytest.mark.parametrize("model, inputs", CASES)
def test_counts_match_torch_flop_counter(model, inputs):
    reference = FlopCounterMode(display=False)
    with torch.no_grad(), reference:
        model(*inputs)
    assert count_flops(model, inputs) == reference.get_total_flops() > 0


def test_matrix_vector_products_and_cpu_attention_count_although_torch_skips_them():
    assert count_flops(lambda a, x: a @ x, [torch.randn(6, 5), torch.randn(5)]) == 2 * 6 * 5
    query = torch.randn(2, 4, 16, 8)
    attention = torch.nn.functional.scaled_dot_product_attention
    assert count_flops(attention, [query, query, query]) == 2 * (2 * 2 * 4 * 16 * 16 * 8)


def test_element_wise_work_counts_nothing():
    assert count_flops(lambda x: torch.relu(x) + 1, [torch.randn(100)]) == 0


def test_counting_does_not_import_dynamo():
    code = ("import sys, torch; from sandboxes.targets.npu.flops import count_flops; "
            "count_flops(torch.nn.Linear(4, 4), [torch.randn(2, 4)]); print('torch._dynamo' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
