"""The worker's hand-over: what it tells the runner about an output it will not copy."""

import subprocess
import sys
from pathlib import Path

import torch

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.worker import _output_kind, overlaps_itself, own_memory, own_tensors


def test_plain_outputs_pass_and_odd_ones_are_named():
    assert _output_kind(torch.ones(2, 3)) == _output_kind(torch.ones(3, 2).t()) == "tensor"
    assert _output_kind(torch.ones(2, 3).as_subclass(type("Fake", (torch.Tensor,), {}))).startswith("not a plain")
    assert _output_kind(torch.empty(2, 3, device="meta")) == "a meta tensor without data"
    assert _output_kind([torch.ones(1)]).startswith("not a plain torch.Tensor but builtins.list")



def test_outputs_that_leave_work_to_the_untimed_copy_are_named():
    assert _output_kind(torch.ones(4).flip(0).neg().resolve_neg()) == "tensor"
    assert _output_kind(torch.ones(4)._neg_view()).startswith("a tensor with its negation")
    assert _output_kind(torch.ones(4, dtype=torch.complex64).conj()).startswith("a tensor with its negation")
    assert _output_kind(torch.ones(1, 4).expand(3, 4)).startswith("a tensor whose elements share memory")
    assert _output_kind(torch.ones(10).as_strided((4, 4), (2, 1))).startswith("a tensor whose elements share memory")


def test_overlap_is_told_from_gaps_and_permutations():
    x = torch.ones(4, 6)
    assert not overlaps_itself(x) and not overlaps_itself(x.t()) and not overlaps_itself(x[:, ::2])
    assert not overlaps_itself(torch.ones(1, 1, 5)) and not overlaps_itself(torch.ones(0, 3))
    assert overlaps_itself(x[:, :1].expand(4, 6)) and overlaps_itself(torch.ones(6).as_strided((3, 3), (1, 1)))


DEFER_TO_THE_HAND_OVER = '''
import sys, torch, torch.nn as nn
Worker = sys.modules["benchmarks.kernels.verifier.runner.worker"].Worker
original = Worker.output
def output(self, message):
    torch.clamp(self.inputs[0], min=0, out=self.last_output)  # the work, after the runner's clock stopped
    return original(self, message)
Worker.output = output
class ModelNew(nn.Module):
    def forward(self, x):
        return torch.empty_like(x)
'''


def test_rebinding_the_workers_handlers_from_the_solution_changes_nothing(tiny_relu, cpu_target, sandbox, quick):
    """With the static checks off (they refuse the patch), the runtime alone: the hand-over that runs is the one bound
    before the solution was imported (5.9x, correct, when the patched one ran)."""
    result = evaluate(tiny_relu, DEFER_TO_THE_HAND_OVER, cpu_target, sandbox=sandbox,
                      config=quick.model_copy(update={"static_checks": False}))
    assert result.status.value == "incorrect" and "elements differ" in result.reason, result.reason


def test_own_tensors_are_every_tensor_the_model_holds():
    class Inner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = torch.ones(2)

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(2, 2)
            self.register_buffer("calls", torch.zeros(1))
            self.inner = Inner()
            self.kept = [torch.zeros(3), 4]
            self.table = {"a": torch.zeros(5)}
            self.holder = Holder()

    class Holder:  # a plain object of the solution's, kept on the module: its tensors count too
        def __init__(self):
            self.cache = [torch.zeros(6)]

    sizes = sorted(t.numel() for t in own_tensors(Model()))
    assert sizes == [1, 2, 2, 3, 4, 5, 6]  # the buffer, bias and scale, the list, the weight, the dict, the holder's


def test_own_memory_is_each_whole_allocation_once():
    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            block = torch.zeros(64)
            self.register_buffer("head", block.narrow(0, 0, 1))  # shows 4 of the allocation's 256 bytes
            self.tail = block[60:]  # the same allocation again
            self.weight = torch.nn.Parameter(torch.ones(3))

    model = Model()
    memory = own_memory(model)
    assert sorted(m.numel() for m in memory) == [12, 256]
    whole = next(m for m in memory if m.numel() == 256)
    before = whole.clone()
    model.head.as_strided((1,), (1,), 40).fill_(7.0)  # a write past the view, as a kernel given its pointer could
    assert not torch.equal(whole, before)


FAULTS = """
import resource, sys, torch
sys.path.insert(0, {root!r})
from benchmarks.kernels.verifier.runner.worker import steady_allocator
steady_allocator()
x = torch.rand(724, 724)
block = torch.empty(64 << 20, dtype=torch.uint8)
del block  # a large block freed: glibc's thresholds move, unless fixed
def call():
    torch.cat((torch.zeros(724, 1), torch.cumsum(x[:, :-1], dim=1)), dim=1)
for _ in range(20):
    call()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    call()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_the_allocator_does_not_map_a_calls_temporaries_afresh_every_call():
    """With glibc's thresholds left to follow the process's history, an exclusive cumsum's 2 MB temporaries were
    mapped and faulted in on every call in some processes and not in others (this probe without the fix: 0 or
    19,820 page faults over 20 calls, three runs each in six), so the same code timed against itself came out
    anywhere from 0.26x to 3.7x. With the thresholds fixed, none after the first calls."""
    root = str(Path(__file__).parents[4])
    probe = subprocess.run([sys.executable, "-c", FAULTS.format(root=root)], check=True, capture_output=True, text=True)
    assert int(probe.stdout) < 50, probe.stdout


def test_running_statistics_of_a_normalisation_layer_in_training_mode_may_change():
    """KernelBench's models are in training mode: BatchNorm updates its running statistics on every call, and the
    torch baseline itself was refused for changing its own buffers. In eval mode they are state like any other."""
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
    sizes = sorted(m.numel() for m in own_memory(model))
    assert sizes == [16, 16, 16, 64]  # the linear layer's bias and weight, the norm's weight and bias: not its stats
    assert sorted(m.numel() for m in own_memory(model.eval())) == [8, 16, 16, 16, 16, 16, 64]


def test_own_tensors_reach_slots_dict_keys_closures_and_class_attributes():
    class Slotted:
        __slots__ = ("flag",)

        def __init__(self):
            self.flag = torch.zeros(2)

    def keeper(kept=torch.zeros(3)):
        return kept

    hidden = torch.zeros(4)

    class Model(torch.nn.Module):
        shared = torch.zeros(5)

        def __init__(self):
            super().__init__()
            self.box = Slotted()
            self.table = {torch.zeros(6): "key"}
            self.keep = keeper
            self.peek = lambda: hidden

    assert sorted(t.numel() for t in own_tensors(Model())) == [2, 3, 4, 5, 6]
