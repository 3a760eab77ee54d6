"""KernelBench-format tasks: loading, validation and selection (``builtin:L1:relu,softmax``, a directory).

A task is a Python file with ``class Model(nn.Module)``, module-level shape constants,
``get_inputs()`` and ``get_init_inputs()``. Optional extras understood here:
``GPU_SHAPES = {"name": value}`` (larger shapes used on a real GPU), ``ATOL``/``RTOL`` and ``RANGE_CHECK = False``
(inputs that must keep their distribution: no range trial).

In a folder, a malformed file, or one that imports a package this Python does not have (KernelBench's
Mamba2 tasks need ``einops``, its level 4 ``transformers``), is skipped (``load_tasks(..., skipped=[])``
collects it with the reason) and the others load; ``scaling`` shrinks every task's sizes (see ``benchmarks.kernels.kernelbench``).
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sandboxes.errors import UserError

if TYPE_CHECKING:
    from benchmarks.kernels.kernelbench import ShapeScaling

BUILTIN_ROOT = Path(__file__).parent / "builtin"
BUILTIN_LEVELS = ("L1", "L2")
REQUIRED_NAMES = ("Model", "get_inputs", "get_init_inputs")


@dataclass(frozen=True)
class KernelTask:
    """One reference program to beat."""

    name: str
    """Unique name within its suite (the file stem, e.g. ``relu``)."""
    level: str
    """Suite level such as ``L1``/``L2``, or the parent folder's name for external tasks."""
    path: Path
    source: str
    shapes: str = ""
    """How shape scaling changed the source (``benchmarks.kernels.kernelbench``); empty when it did not run."""

    @property
    def qualified_name(self) -> str:
        """``L1/relu``: unique across levels."""
        return f"{self.level}/{self.name}"

    @property
    def description(self) -> str:
        """The module docstring (first line), used in prompts and tables."""
        doc = ast.get_docstring(ast.parse(self.source)) or ""
        return doc.strip().splitlines()[0] if doc.strip() else self.name


@dataclass(frozen=True)
class SkippedTask:
    """A file in a task folder that is not a loadable task."""

    path: Path
    reason: str

    @property
    def warning(self) -> str:
        """One line for the user."""
        return f"warning: skipped {self.path.name}: {self.reason}"


def task_notes(tasks: list[KernelTask], skipped: list[SkippedTask]) -> dict:
    """Report entries for what loading did: files skipped (with why) and tasks whose shapes were scaled."""
    notes: dict = {}
    if skipped:
        notes["skipped_task_files"] = {s.path.name: s.reason for s in skipped}
    scaled = {t.qualified_name: t.shapes for t in tasks if t.shapes.startswith("scaled")}
    if scaled:
        notes["shape_scaled_tasks"] = len(scaled)
        notes["shapes"] = scaled
    return notes


def load_task(path: str | Path, level: str | None = None) -> KernelTask:
    """Read and validate one task file; a malformed file is a UserError naming what is missing."""
    path = Path(path)
    try:
        source = path.read_text()
        tree = ast.parse(source, filename=str(path))
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"cannot read task {path}: {error}") from error
    except SyntaxError as error:
        raise UserError(f"task {path} is not valid Python: line {error.lineno}: {error.msg}") from error
    except (MemoryError, RecursionError):  # nested too deeply for the parser
        raise UserError(f"task {path} nests too deeply for Python's parser") from None
    defined = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    missing = [name for name in REQUIRED_NAMES if name not in defined]
    if missing:
        raise UserError(f"task {path} is not in KernelBench format: missing {', '.join(missing)}")
    absent = missing_packages(tree)
    if absent:
        raise UserError(f"task {path} imports {', '.join(absent)}, which this Python does not have "
                        f"(pip install {' '.join(absent)})")
    return KernelTask(name=_task_name(path), level=level or path.parent.name, path=path, source=source)


def missing_packages(tree: ast.Module) -> list[str]:
    """The top-level packages a task imports that this Python cannot find (the trusted runner and the
    solution's worker use the same installation). Imports inside ``try`` are optional and not counted."""
    imported, pending = set(), list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Try):
            continue
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
        pending += ast.iter_child_nodes(node)
    return sorted(name for name in imported if importlib.util.find_spec(name) is None)


def builtin_task_names(level: str) -> list[str]:
    """Names of the built-in tasks of one level, sorted."""
    if level not in BUILTIN_LEVELS:
        raise UserError(f"unknown built-in level {level!r}; choose from {', '.join(BUILTIN_LEVELS)}")
    return sorted(_task_name(p) for p in (BUILTIN_ROOT / level).glob("*.py") if not p.name.startswith("_"))


def load_tasks(selector: str, scaling: "ShapeScaling | None" = None,
               skipped: list[SkippedTask] | None = None) -> list[KernelTask]:
    """Tasks for a selector: ``builtin``, ``builtin:L1``, ``builtin:L1:relu,soft*``, a directory or a file.

    Several selectors may be joined with ``+`` (``builtin:L1:relu+builtin:L2``). Malformed files in a
    folder are left out and appended to ``skipped``; ``scaling`` shrinks each task's shapes.
    """
    tasks: list[KernelTask] = []
    left_out = skipped if skipped is not None else []
    for part in selector.split("+"):
        tasks += _load_one_selector(part.strip(), left_out)
    if not tasks:
        reasons = "; ".join(f"{s.path.name}: {s.reason}" for s in left_out[:3])
        raise UserError(f"no tasks match {selector!r}" + (f" (skipped {reasons})" if reasons else ""))
    if scaling is not None and scaling.active:
        from benchmarks.kernels.kernelbench import scale_task

        tasks = [scale_task(task, scaling) for task in tasks]
    return tasks


def _load_one_selector(selector: str, skipped: list[SkippedTask]) -> list[KernelTask]:
    if selector == "builtin" or selector.startswith("builtin:"):
        parts = selector.split(":", 2)
        levels = [parts[1]] if len(parts) > 1 and parts[1] else list(BUILTIN_LEVELS)
        patterns = parts[2].split(",") if len(parts) > 2 else ["*"]
        return [load_task(BUILTIN_ROOT / level / f"{name}.py", level)
                for level in levels for name in _select(builtin_task_names(level), patterns, selector)]
    path, _, pattern_text = selector.partition("::")
    return _load_path(Path(path).expanduser(), pattern_text.split(",") if pattern_text else ["*"], skipped)


def _load_path(path: Path, patterns: list[str], skipped: list[SkippedTask]) -> list[KernelTask]:
    if path.is_file():
        return [load_task(path)]
    if not path.is_dir():
        raise UserError(f"task path {path} does not exist (use builtin:L1, builtin:L2 or a KernelBench folder)")
    files = {_task_name(p): p for p in sorted(path.glob("*.py")) if not p.name.startswith("_")}
    if not files:
        raise UserError(f"no task files (*.py) in {path}; a KernelBench level folder holds one file per task")
    tasks = []
    for name in _select(sorted(files), patterns, str(path)):
        try:
            tasks.append(load_task(files[name]))
        except UserError as error:
            skipped.append(SkippedTask(files[name], str(error)))
    return tasks


def _select(names: list[str], patterns: list[str], selector: str) -> list[str]:
    """The names matching any pattern (a name, a glob, or a file name: ``35_LSTM.py``)."""
    patterns = [p.strip().removesuffix(".py") for p in patterns]
    chosen = [n for n in names if any(_matches(n, p) for p in patterns)]
    unknown = [p for p in patterns if not any(_matches(n, p) for n in names)]
    if unknown:
        shown = ", ".join(names[:40]) + (f" and {len(names) - 40} more" if len(names) > 40 else "")
        raise UserError(f"no task named {', '.join(unknown)} in {selector}; known: {shown}")
    return chosen


def _matches(name: str, pattern: str) -> bool:
    return name == pattern or fnmatch.fnmatchcase(name, pattern)


def _task_name(path: Path) -> str:
    return path.stem
