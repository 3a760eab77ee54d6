"""The worker's hand-over: what it tells the runner about an output it will not copy."""

import torch

from benchmarks.kernels.verifier.runner.worker import _output_kind


def test_plain_outputs_pass_and_odd_ones_are_named():
    assert _output_kind(torch.ones(2, 3)) == _output_kind(torch.ones(3, 2).t()) == "tensor"
    assert _output_kind(torch.ones(2, 3).as_subclass(type("Fake", (torch.Tensor,), {}))).startswith("not a plain")
    assert _output_kind(torch.empty(2, 3, device="meta")) == "a meta tensor without data"
    assert _output_kind([torch.ones(1)]).startswith("not a plain torch.Tensor but builtins.list")

