from agents.evokernel.taskinfo import input_shapes, op_family, task_bucket, slug
from benchmarks.kernels.tasks import load_tasks


def test_families_of_builtin_tasks():
    tasks = {t.name: t for t in load_tasks("builtin:L1")}
    expected = {"relu": "elementwise", "hardtanh": "elementwise", "sum_rows": "reduction", "softmax": "softmax",
                "log_softmax": "softmax", "layer_norm": "norm", "matmul": "matmul", "conv2d": "conv",
                "max_pool2d": "pooling", "cumsum": "scan", "transpose_2d": "transpose", "mse_loss": "reduction"}
    assert {name: op_family(name, tasks[name].source) for name in expected} == expected


def test_shapes_come_from_module_constants_without_running_the_task():
    source = "import torch\nB = 4\nN = 2 * 512\ndef get_inputs():\n    return [torch.randn(B, N), torch.rand((N,))]\n"
    assert input_shapes(source) == [(4, 1024), (1024,)]
    assert task_bucket(source) == "2^12"
    assert task_bucket("def get_inputs(:") == "2^?"


def test_slug():
    assert slug("L1/relu") == "L1_relu"
