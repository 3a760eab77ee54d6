"""Imports point one way: agents -> memory, tools, benchmarks -> sandboxes; numerics imports nothing of ours."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"agents", "memory", "tools", "sandboxes", "benchmarks", "numerics"}
FORBIDDEN = {
    "numerics": OURS - {"numerics"},
    "sandboxes": {"agents", "memory", "tools", "benchmarks"},
    "benchmarks": {"agents", "memory"},
    "memory": {"agents"},
    "tools": {"agents"},
}


def imported_packages(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_upward_imports(package):
    offences = {str(path.relative_to(ROOT)): sorted(imported_packages(path) & FORBIDDEN[package])
                for path in (ROOT / package).rglob("*.py")}
    assert {path: names for path, names in offences.items() if names} == {}
