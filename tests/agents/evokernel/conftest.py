"""Small KernelBench-format tasks that the simulated NPU verifies in seconds."""

from pathlib import Path

import pytest

TASK = '''"""{doc}"""

import torch
import torch.nn as nn

batch_size = 4
dim = 8192


class Model(nn.Module):
    """{doc}"""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return {expr}


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
'''


@pytest.fixture
def small_tasks(tmp_path: Path) -> Path:
    return write_small_tasks(tmp_path)


def write_small_tasks(tmp_path: Path) -> Path:
    """A folder with relu and sigmoid on 4 x 8192 elements."""
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "relu.py").write_text(TASK.format(doc="ReLU activation: y = max(x, 0).", expr="torch.relu(x)"))
    (folder / "sigmoid.py").write_text(TASK.format(doc="Sigmoid activation.", expr="torch.sigmoid(x)"))
    return folder
