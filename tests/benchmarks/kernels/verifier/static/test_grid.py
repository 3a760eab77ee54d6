"""Launch grids: sizes from meta-parameters, nothing else."""

import ast

from benchmarks.kernels.verifier.static.grid import grid_problems


def problems(source: str) -> list[str]:
    node = ast.parse(source).body[0]
    node = node.value if isinstance(node, ast.Assign) else node
    return [message for _, message in grid_problems(node)]


def test_size_arithmetic_passes():
    assert problems('grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]), max(1, x.shape[0] // 2))') == []
    assert problems('def grid(meta):\n    rows = x.size(0)\n    return (triton.cdiv(rows, meta["B"]), len(y))') == []


def test_work_in_a_grid_is_refused():
    assert any("attribute 'numpy'" in m for m in problems('grid = lambda meta: (meta["X"].numpy(), 1)'))
    assert any("default values" in m for m in problems("grid = lambda meta, t=x: (1,)"))
    assert any("may call only" in m for m in problems('grid = lambda meta: (helper(meta["X"]), 1)'))
    assert problems("grid = lambda meta: [v for v in meta]") == ["a launch grid may not contain ListComp"]
    assert any("Lambda" in m for m in problems("grid = lambda meta: (lambda: 1)()"))
