"""SWE-bench instance rows for evaluation (fields at the top level or under ``meta_data``) and
predictions in SWE-bench's format (JSONL rows, a JSON list, or a JSON object keyed by instance id)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError

from benchmarks.repo.instances import check_git_arguments, read_rows

REQUIRED = ("instance_id", "repo", "base_commit", "patch", "test_patch", "FAIL_TO_PASS", "PASS_TO_PASS", "version")
BASELINES = ("gold", "empty")
"""Predictions that need no file: the instance's own patch, or no patch at all."""


@dataclass
class Instance:
    """One SWE-bench task: where the code is, the gold and test patches and the tests that grade it."""

    instance_id: str
    repo: str
    base_commit: str
    patch: str
    test_patch: str
    fail_to_pass: list[str]
    pass_to_pass: list[str]
    version: str
    problem_statement: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    """The whole row (``eval_script``, ``log_parser``, ``eval_type`` of SWE-bench 5 rows, ``spec``, ...)."""

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "Instance":
        merged = {**row.get("meta_data", {}), **{k: v for k, v in row.items() if k != "meta_data"}}
        name = merged.get("instance_id", "?")
        missing = [key for key in REQUIRED if key not in merged or (merged[key] in (None, "") and key != "test_patch")]
        if missing:
            raise UserError(f"instance {name}: missing {', '.join(missing)}")
        check_git_arguments(merged)
        return cls(str(merged["instance_id"]), str(merged["repo"]), str(merged["base_commit"]), merged["patch"],
                   merged["test_patch"] or "", test_list(merged["FAIL_TO_PASS"], name, "FAIL_TO_PASS"),
                   test_list(merged["PASS_TO_PASS"], name, "PASS_TO_PASS"), str(merged["version"]),
                   merged.get("problem_statement") or "", merged)


def test_list(value: Any, instance_id: str, key: str) -> list[str]:
    """A FAIL_TO_PASS / PASS_TO_PASS value: a JSON-encoded list (SWE-bench's datasets) or a list."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise UserError(f"instance {instance_id}: {key} is not a JSON list") from None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise UserError(f"instance {instance_id}: {key} must be a list of test names")
    return value


def load_instances(path: str | Path, ids: set[str] | None = None) -> list[Instance]:
    """The instances of ``path`` (only those in ``ids`` when given), in file order; duplicate ids are an error."""
    instances = [Instance.from_row(row) for row in read_rows(path)]
    seen: set[str] = set()
    for instance in instances:
        if instance.instance_id in seen:
            raise UserError(f"{path}: instance {instance.instance_id} appears twice")
        seen.add(instance.instance_id)
    return [i for i in instances if ids is None or i.instance_id in ids]


@dataclass
class Prediction:
    """One row of SWE-bench's predictions: who made it and the patch (None: no patch was produced)."""

    instance_id: str
    model_name_or_path: str
    model_patch: str | None

    def to_row(self) -> dict[str, Any]:
        return {"instance_id": self.instance_id, "model_name_or_path": self.model_name_or_path,
                "model_patch": self.model_patch}

    @property
    def empty(self) -> bool:
        return not self.model_patch


def baseline_predictions(kind: str, instances: list[Instance]) -> dict[str, Prediction]:
    """``gold`` (each instance's own patch) or ``empty`` (no patch), the harness's sanity baselines."""
    if kind not in BASELINES:
        raise UserError(f"unknown baseline {kind!r} (use {' or '.join(BASELINES)})")
    return {i.instance_id: Prediction(i.instance_id, kind, i.patch if kind == "gold" else "") for i in instances}


def load_predictions(path: str | Path) -> dict[str, Prediction]:
    """Predictions by instance id from a SWE-bench predictions file (a later row for an id replaces an earlier)."""
    path = Path(path)
    rows = _prediction_rows(path)
    predictions = {}
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict) or "instance_id" not in row or "model_patch" not in row:
            raise UserError(f"{path}: prediction {number} needs instance_id and model_patch")
        patch = row["model_patch"]
        if patch is not None and not isinstance(patch, str):
            raise UserError(f"{path}: prediction {row['instance_id']}: model_patch must be text or null")
        predictions[str(row["instance_id"])] = Prediction(str(row["instance_id"]),
                                                          str(row.get("model_name_or_path") or path.stem), patch)
    return predictions


def _prediction_rows(path: Path) -> list[Any]:
    if path.is_file() and path.suffix == ".json":
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError as error:
            raise UserError(f"{path}: not valid JSON ({error})") from None
        if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
            return [{"instance_id": key, **value} for key, value in data.items()]
        return data if isinstance(data, list) else [data]
    return read_rows(path)


def write_predictions(predictions: list[Prediction], path: str | Path) -> Path:
    """SWE-bench's predictions JSONL."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(p.to_row()) + "\n" for p in predictions))
    return path
