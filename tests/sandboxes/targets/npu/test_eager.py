"""The framework-eager baseline: one template kernel per operator, GM round trips between them."""

import torch
import torch.nn as nn

from sandboxes.targets.npu.eager import run_eager


class TwoOps(nn.Module):
    def forward(self, x):
        return torch.softmax(torch.relu(x), dim=-1)


class Broadcast(nn.Module):
    def forward(self, x, y):
        return x * y


def test_each_operator_is_its_own_launch():
    x = torch.randn(8, 1000)
    eager = run_eager(TwoOps(), [x])
    assert eager.reason == ""
    torch.testing.assert_close(eager.output, torch.softmax(torch.relu(x), dim=-1), atol=1e-6, rtol=1e-4)
    assert [p.kernel for p in eager.profile.launches] == ["elementwise_kernel", "softmax_kernel"]
    # the intermediate goes to GM and back: relu writes it, softmax reads it twice (two passes)
    assert eager.profile.launches[1].gm_read_bytes >= 2 * x.numel() * 4


def test_unsupported_operators_give_a_reason():
    eager = run_eager(Broadcast(), [torch.randn(4, 8), torch.randn(4, 1)])
    assert eager.profile is None and "no NPU template" in eager.reason


class Masked(nn.Module):
    def forward(self, x, mask):
        return torch.cumsum(x * mask, dim=1)




def test_a_whole_graph_operator_is_the_baseline_when_the_operators_have_no_templates():
    x, mask = torch.randn(4, 300), torch.rand(4, 300) > 0.5
    eager = run_eager(Masked(), [x, mask])  # a float times a bool mask has no element-wise template
    assert [p.kernel for p in eager.profile.launches] == ["scan_kernel"]
    torch.testing.assert_close(eager.output, (x * mask).cumsum(1), atol=1e-5, rtol=1e-5)


def test_a_template_that_fails_on_the_operands_means_no_baseline():
    eager = run_eager(TwoOps(), [torch.randn(4, 8).double()])  # the simulator has no float64
    assert eager.profile is None and eager.reason.startswith("the eager baseline failed")
