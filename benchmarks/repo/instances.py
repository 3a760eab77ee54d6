"""SWE-bench instances from JSON or JSONL (also LocAgent's output rows, whose fields sit in ``meta_data``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError

REQUIRED = ("instance_id", "repo", "base_commit", "patch")
COMMIT_ID = re.compile(r"[0-9a-fA-F]{4,64}")


@dataclass
class Instance:
    instance_id: str
    repo: str
    base_commit: str
    problem_statement: str
    patch: str
    gt_file_changes: list[dict] | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "Instance":
        merged = {**row.get("meta_data", {}), **{k: v for k, v in row.items() if k != "meta_data"}}
        missing = [key for key in REQUIRED if not merged.get(key)]
        if missing:
            raise UserError(f"instance {merged.get('instance_id', '?')}: missing {', '.join(missing)}")
        check_git_arguments(merged)
        return cls(merged["instance_id"], merged["repo"], merged["base_commit"],
                   merged.get("problem_statement", ""), merged["patch"], merged.get("gt_file_changes"), merged)


def check_git_arguments(row: dict[str, Any]) -> None:
    """A ``UserError`` unless the row's base_commit is a commit id and its repo does not start with '-': both reach
    git's command line, where ``--output=FILE`` would be an option."""
    if not COMMIT_ID.fullmatch(str(row["base_commit"])):
        raise UserError(f"instance {row['instance_id']}: base_commit {str(row['base_commit'])[:80]!r} is not a git "
                        "commit id (4 to 64 hex digits)")
    if str(row["repo"]).startswith("-"):
        raise UserError(f"instance {row['instance_id']}: repo {str(row['repo'])[:80]!r} starts with '-'")


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a ``.json`` (a list, or ``{"instances": [...]}``) or ``.jsonl`` file."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"no such file: {path}")
    text = path.read_text()
    try:
        if path.suffix == ".jsonl" or (text.lstrip()[:1] == "{" and "\n{" in text.strip()):
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"{path}: not valid JSON/JSONL ({error})") from error
    rows = data.get("instances", [data]) if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise UserError(f"{path}: expected a list of instances")
    return rows


def load_instances(path: str | Path, exclude: set[str] | None = None) -> list[Instance]:
    """Instances of ``path`` minus the ids in ``exclude``, in file order."""
    exclude = exclude or set()
    instances = [Instance.from_row(row) for row in read_rows(path)]
    return [i for i in instances if i.instance_id not in exclude]


def read_ids(path: str | Path) -> set[str]:
    """Instance ids, one per line (blank lines and ``#`` comments ignored)."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"no such ids file: {path}")
    return {line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")}
