"""The shipped resolution benchmark: SWE-bench instances over two generated repositories with planted bugs.

``build_generated(dest)`` writes the git repositories ``textkit`` and ``shapes`` under ``dest`` (fixed
dates and identity, so the commits are the same everywhere), ``instances.jsonl`` (11 instances in
SWE-bench's schema: gold patch, test patch, FAIL_TO_PASS, PASS_TO_PASS, version, ``log_parser``) and
``specs.json`` (the environment of each repository and version). The repositories need nothing but
pytest; their spec lets the venv see the host Python's packages (``system_site_packages``), so pytest comes
from there and ``pip install pytest>=7`` is satisfied without the network.

``adversarial_predictions`` gives the harness checks' two bad patches: one that passes FAIL_TO_PASS but
breaks a PASS_TO_PASS test, and one that removes a line the code does not have (it does not apply).
"""

from __future__ import annotations

import ast
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks.repo.demo import commit_all, git, write_files
from benchmarks.resolve import gen_shapes, gen_textkit
from benchmarks.resolve.gen_types import Bug
from benchmarks.resolve.instances import Prediction

OWNER = "agentkiln-gen"
REPOSITORIES = {f"{OWNER}/textkit": ("1.0", gen_textkit), f"{OWNER}/shapes": ("2.0", gen_shapes)}
ADVERSARIAL = "adversarial"


def generated_spec() -> dict:
    """The spec of every generated repository: this Python, pytest from the host's packages, no plugins."""
    return {"python": f"{sys.version_info.major}.{sys.version_info.minor}", "pip_packages": ["pytest>=7"],
            "system_site_packages": True, "eval_commands": ["export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1"],
            "test_cmd": "pytest -rA -p no:cacheprovider"}


@dataclass
class Generated:
    """Where the generated benchmark was written."""

    mirrors: Path
    """The folder holding the repositories (the harness's ``mirrors``)."""
    instances: Path
    specs: Path
    rows: list[dict]


def test_names(source: str, path: str) -> list[str]:
    """``path::test_name`` for every top-level test function of a test module."""
    tree = ast.parse(source)
    return [f"{path}::{node.name}" for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def _diff_after(repo: Path, path: str, change) -> str:
    """The diff of ``path`` after ``change(text)``; the file is put back afterwards."""
    original = (repo / path).read_text()
    (repo / path).write_text(change(original))
    try:
        return git(repo, "diff", "--", path)
    finally:
        (repo / path).write_text(original)


def _replace(buggy: str, fixed: str):
    def change(text: str) -> str:
        assert buggy in text, f"planted text not found: {buggy!r}"
        return text.replace(buggy, fixed, 1)
    return change


def _row(name: str, version: str, repo: Path, commit: str, date: str, first: str, bug: Bug) -> dict:
    return {"instance_id": bug.instance_id, "repo": name, "base_commit": commit, "version": version,
            "patch": _diff_after(repo, bug.path, _replace(bug.buggy, bug.fixed)),
            "test_patch": _diff_after(repo, bug.test_path, lambda text: text + bug.test_code),
            "problem_statement": bug.issue, "hints_text": "", "created_at": date, "environment_setup_commit": first,
            "FAIL_TO_PASS": json.dumps([f"{bug.test_path}::{test}" for test in bug.fail_to_pass]),
            "PASS_TO_PASS": json.dumps(test_names((repo / bug.test_path).read_text(), bug.test_path)),
            "log_parser": "parse_log_pytest", "eval_type": "pass_and_fail"}


def build_repository(dest: Path, name: str, version: str, module) -> list[dict]:
    """Write one repository's commits; the rows of the instances planted in it."""
    repo = dest / name.split("/")[-1]
    shutil.rmtree(repo, ignore_errors=True)  # a fresh history: the same commits as every other build
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    rows, first = [], ""
    for index, (message, date, files) in enumerate(module.COMMITS):
        write_files(repo, files)
        commit = commit_all(repo, message, date)
        first = first or commit
        rows += [_row(name, version, repo, commit, date, first, bug) for bug in module.BUGS if bug.commit == index]
    return rows


def build_generated(dest: str | Path) -> Generated:
    """Write the repositories, ``instances.jsonl`` and ``specs.json`` under ``dest``."""
    dest = Path(dest).resolve()
    dest.mkdir(parents=True, exist_ok=True)
    rows = [row for name, (version, module) in REPOSITORIES.items()
            for row in build_repository(dest, name, version, module)]
    instances = dest / "instances.jsonl"
    instances.write_text("".join(json.dumps(row) + "\n" for row in rows))
    specs = dest / "specs.json"
    specs.write_text(json.dumps({name: {version: generated_spec()} for name, (version, _) in REPOSITORIES.items()},
                                indent=1) + "\n")
    return Generated(dest, instances, specs, rows)


def adversarial_predictions(generated: Generated) -> dict[str, Prediction]:
    """textkit-1: a patch that breaks PASS_TO_PASS; shapes-1: the gold patch removing a line that is not in
    the code (so neither ``git apply`` nor ``patch --fuzz`` can apply it)."""
    instance_id, path, buggy, bad = gen_textkit.BREAKS_P2P
    rows = {row["instance_id"]: row for row in generated.rows}
    repo = generated.mirrors / "textkit"
    breaking = _diff_after(repo, path, _replace(buggy, bad))
    gold = rows["shapes-1"]["patch"].splitlines(keepends=True)
    removed = next(i for i, line in enumerate(gold) if line.startswith("-") and not line.startswith("---"))
    stale = "".join(gold[:removed] + ["-    return total / 3\n"] + gold[removed + 1:])
    return {instance_id: Prediction(instance_id, ADVERSARIAL, breaking),
            "shapes-1": Prediction("shapes-1", ADVERSARIAL, stale)}
