"""Shape scaling of KernelBench-format task files (the fixtures in kernelbench_format/ follow its layout:
names with ``__`` and trailing ``_``, ``super(Model, self)``, module-level shapes of many GiB)."""

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks.kernels.kernelbench import ShapeScaling, created_bytes, scale_source, scale_task, scaled_size
from benchmarks.kernels.meta import MetaError, meta_forward, meta_input_bytes
from benchmarks.kernels.tasks import SkippedTask, load_tasks

FOLDER = Path(__file__).parent / "kernelbench_format"
GIB = 1 << 30


def task(prefix: str):
    return next(t for t in load_tasks(str(FOLDER)) if t.name.startswith(prefix))


def constants(source: str) -> dict:
    namespace: dict = {}
    exec(compile(source, "task.py", "exec"), namespace)
    return namespace


def test_a_folder_loads_every_wellformed_file_and_reports_the_malformed_one():
    skipped: list[SkippedTask] = []
    tasks = load_tasks(str(FOLDER), skipped=skipped)
    assert {t.name for t in tasks} == {"19_ReLU", "26_GELU_", "35_GroupNorm_", "40_LayerNorm",
                                       "47_Sum_reduction_over_a_dimension", "94_MSELoss",
                                       "84_conv_depthwise_2D_asymmetric_input_square_kernel",
                                       "50_conv_standard_2D__square_input__square_kernel"}
    assert [s.path.name for s in skipped] == ["99_Missing_init_inputs_.py"]
    assert "missing get_init_inputs" in skipped[0].reason and skipped[0].warning.startswith("warning: skipped")


def test_scale_multiplies_the_size_constants_and_says_so():
    relu = task("19_")
    assert meta_input_bytes(relu.source) == 6 * GIB
    scaled = scale_task(relu, ShapeScaling(scale=0.1))
    values = constants(scaled.source)
    assert (values["batch_size"], values["dim"]) == (416, 39328)
    assert scaled.shapes.startswith("scaled x0.1 (batch_size 4096->416, dim 393216->39328); inputs 6.00 GiB -> ")
    assert "super(Model, self)" in scaled.source and scaled.path == relu.path


def test_constants_that_only_configure_the_operator_keep_their_values():
    group = constants(scale_task(task("35_"), ShapeScaling(scale=0.1)).source)
    assert group["num_groups"] == 8 and group["features"] == 8  # 64 * 0.1, still divisible by the groups
    reduce = constants(scale_task(task("47_"), ShapeScaling(scale=0.1)).source)
    assert reduce["reduce_dim"] == 1 and reduce["dim2"] == 410  # the odd 4095 stays odd
    depthwise = constants(scale_task(task("84_"), ShapeScaling(scale=0.1)).source)
    assert depthwise["in_channels"] == depthwise["out_channels"] == 16 and depthwise["kernel_size"] == 3
    conv = scale_task(task("50_"), ShapeScaling(scale=0.1))
    assert "batch_size 256->32" in conv.shapes and "kernel_size=11, stride=4, padding=2" in conv.source
    assert conv.shapes.endswith("; parameters 0.1 MiB")  # 96x3x11x11 weights and 96 biases, float32


def test_tuple_constants_are_scaled_element_by_element():
    mse = scale_task(task("94_"), ShapeScaling(scale=0.25))
    assert constants(mse.source)["input_shape"] == (8192,)
    assert "input_shape[0] 32768->8192" in mse.shapes


def test_max_input_mb_shrinks_each_task_to_fit_and_leaves_small_ones_alone():
    for item in load_tasks(str(FOLDER)):
        scaled = scale_task(item, ShapeScaling(max_input_mb=4))
        assert meta_input_bytes(scaled.source) <= 4 << 20, item.name
        meta_forward(scaled.source)  # the scaled task still runs
    small = load_tasks("builtin:L1:relu")[0]
    assert scale_task(small, ShapeScaling(max_input_mb=1024)).shapes.startswith("unscaled: inputs")
    assert scale_task(small, ShapeScaling()) is small


def test_a_scaling_that_breaks_the_model_falls_back_to_the_constants_it_can_change():
    source = task("35_").source.replace("num_groups = 8", "num_groups = 16")
    scaled = scale_source(source, 0.1)
    with pytest.raises(MetaError, match="divisible by num_groups"):
        meta_forward(scaled.source)  # 8 channels in 16 groups
    kept = constants(scale_task(replace(task("35_"), source=source), ShapeScaling(scale=0.1)).source)
    assert kept["features"] == 64 and kept["num_groups"] == 16 and kept["batch_size"] == 8


SQUARE_IMAGES = """import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x):
        return x * 2

batch_size = 16
height = width = 128

def get_inputs():
    return [torch.rand(batch_size, 3, height, width)]

def get_init_inputs():
    return []
"""


def test_a_value_assigned_to_several_names_is_rewritten_once():
    scaled = scale_source(SQUARE_IMAGES, 0.25)
    assert "height = width = 32\n" in scaled.source and "batch_size = 4\n" in scaled.source
    assert scaled.changes == {"batch_size": (16, 4), "height": (128, 32), "width": (128, 32)}


def test_scaled_size_keeps_powers_of_two_and_irregular_sizes():
    assert [scaled_size(v, 0.1) for v in (4096, 393216, 64, 4095, 8205, 3, 16)] == [416, 39328, 8, 410, 821, 1, 2]


def test_created_bytes_estimates_the_tensors_a_file_creates():
    assert created_bytes(task("19_").source) == 6 * GIB
    assert created_bytes("import torch\nn = 4\ndef get_inputs():\n    return [torch.rand(n, 2 * n)]\n") == 128
    assert created_bytes("def get_inputs():\n    return []\n") is None


def test_the_host_reads_a_6_gib_task_without_allocating_it():
    """Under a 3 GiB address-space limit, recognising the operator of the 6 GiB ReLU still works."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)); "
            "from benchmarks.kernels.npu_references import task_operator; "
            f"spec = task_operator(open({str(FOLDER / '19_ReLU.py')!r}).read()); print(spec.op)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parents[3])
    assert done.returncode == 0 and done.stdout.strip() == "relu", done.stderr[-800:]


def test_the_template_for_a_kernelbench_task_is_accepted_by_the_verifier(sandbox, quick):
    """The NPU template rendered for a KernelBench LayerNorm (super(Model, self), 256 MiB of inputs
    scaled down) passes the static checks and the trusted runner."""
    from benchmarks.kernels.npu_references import solution_for
    from benchmarks.kernels.verifier.harness import evaluate
    from benchmarks.kernels.verifier.result import Status
    from sandboxes.targets.npu.target import NpuTarget

    layer_norm = scale_task(task("40_"), ShapeScaling(max_input_mb=0.25))
    solution = solution_for(layer_norm.source)
    assert "super().__init__()" in solution and "Model, self" not in solution
    result = evaluate(layer_norm, solution, NpuTarget(), sandbox=sandbox, config=quick)
    assert result.status is Status.CORRECT, result.reason
