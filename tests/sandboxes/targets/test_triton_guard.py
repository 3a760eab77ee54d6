"""The worker's guard on Triton launches, in the interpreter (a fresh process: TRITON_INTERPRET is read at import)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from sandboxes.targets.triton_guard import refuse_foreign_objects, refuse_tensor_constexprs

pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[3]
PROGRAM = r'''
import torch, triton, triton.language as tl
from sandboxes.targets.triton_guard import guard_triton_launches
guard_triton_launches()
guard_triton_launches()  # once per process, however often it is called

@triton.jit
def relu(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.maximum(tl.load(x_ptr + offsets, mask=offsets < n), 0.0), mask=offsets < n)

@triton.jit
def empty(X: tl.constexpr, OUT: tl.constexpr, n, BLOCK: tl.constexpr):
    pass

x = torch.randn(100)
out = torch.empty_like(x)
seen = []
relu[lambda meta: (seen.append(sorted(meta)) or triton.cdiv(100, meta["BLOCK"]),)](x, out, 100, BLOCK=64)
print("relu", torch.equal(out, x.clamp_min(0)), seen[0])
try:
    empty[lambda meta: (1,)](x, out, 100, BLOCK=64)
except Exception as error:
    print("refused", type(error).__name__, "X" in str(error))

@triton.jit
def listed(bufs, n, BLOCK: tl.constexpr):
    pass

try:
    listed[(1,)]([x, out], 100, BLOCK=64)
except Exception as error:
    print("refused", type(error).__name__, "bufs" in str(error))

@triton.jit
def carry(out_ptr):
    pid = tl.program_id(0)
    tl.store(out_ptr + pid + 1, tl.load(out_ptr + pid) + 1.0)  # reads what the program before it wrote

chained = []
for _ in range(3):
    ramp = torch.zeros(65)
    carry[(64,)](ramp)
    chained.append(torch.equal(ramp, torch.arange(65.0)))
print("in order", chained)
'''


def test_a_grid_sees_sizes_a_parameter_takes_one_tensor_and_programs_run_in_any_order():
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, env=env)
    lines = proc.stdout.splitlines()
    assert lines[0] == "relu True ['BLOCK', 'n']", proc.stdout + proc.stderr
    assert lines[1] == "refused TypeError True", proc.stdout + proc.stderr
    assert lines[2] == "refused TypeError True", proc.stdout + proc.stderr  # tensors in a list reach the kernel as is
    # programs run in a random order (a chain of 64 that each read the previous one's write is a race on a GPU)
    assert lines[3] == "in order [False, False, False]", proc.stdout + proc.stderr


@pytest.mark.parametrize("holder", [lambda t: [t], lambda t: (1, t), lambda t: {"x": t}, lambda t: {t}],
                         ids=["list", "tuple", "dict", "set"])
def test_a_container_holding_a_tensor_is_refused_for_any_parameter(holder):
    def kernel(buffers, n):
        pass

    with pytest.raises(TypeError, match="holding tensors passed for the parameter 'buffers'"):
        refuse_tensor_constexprs(kernel, (holder(torch.zeros(2)), 4), {})
    refuse_tensor_constexprs(kernel, ((1, 2), 4), {})  # sizes in a tuple stay allowed


def test_only_kernel_values_are_launch_arguments():
    class Box:
        @property
        def shape(self):  # host Python that would run inside the kernel
            return (1,)

    def kernel(x, n, scale, dtype, extra):
        pass

    refuse_foreign_objects(kernel, (torch.zeros(2), 4, 0.5, torch.float32, (1, "a", None)), {})
    for foreign in (Box(), torch.nn.Linear(2, 2), torch, print):
        with pytest.raises(TypeError, match="passed for the parameter 'extra'"):
            refuse_foreign_objects(kernel, (torch.zeros(2), 4, 0.5, torch.float32, foreign), {})
