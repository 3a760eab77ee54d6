"""MCP tests: the SDK's own client against the server, in-process or over a real transport."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("mcp", reason='needs the MCP SDK: pip install -e ".[ui]"')

REPO = Path(__file__).resolve().parents[3]
SOLUTIONS = REPO / "benchmarks" / "kernels" / "solutions"
NPU_RELU = SOLUTIONS / "accepted" / "npu" / "L1__relu__npu_function_kernel.py"
CHEAT = SOLUTIONS / "adversarial" / "L1__relu__calls_reference_op.py"


@pytest.fixture
def workdir(isolated_agent_env):
    """A work directory holding a small ReLU task (KernelBench format), and a secret file outside it."""
    work = isolated_agent_env / "work"
    work.mkdir()
    relu = (REPO / "benchmarks" / "kernels" / "builtin" / "L1" / "relu.py").read_text()
    (work / "small_relu.py").write_text(relu.replace("batch_size = 16", "batch_size = 4")
                                        .replace("dim = 262144", "dim = 4096"))
    (isolated_agent_env / "secret.txt").write_text("top secret\n")
    return work
