"""The repair agent's own tools over its worktree: list, read, edit and write files, run the tests in the
sandbox (network off), and submit. Writing tools declare ``sandbox`` (they change only the worktree the
sandbox runs), so chat's approval policy pauses for them unless ``--yes`` approves sandboxed calls."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Callable

from pydantic import BaseModel, Field

from sandboxes.base import Limits, Sandbox
from tools.base import Tool

from agents.repair.worktree import Worktree

SUBMITTED = "submitted"
OUTPUT_CHARS = 6000
SCRIPT = "_agentkiln_tests.sh"


@dataclass
class RunTestsEnv:
    """How run_tests runs: the command, the environment's bin folder first on PATH, what the sandbox shows."""

    command: str
    bin: str
    limits: Limits
    sandbox: Callable[[], Sandbox]
    readonly: list[str] = field(default_factory=list)


class ListArgs(BaseModel):
    path: str = Field(".", description="Folder inside the repository.")


class ReadArgs(BaseModel):
    path: str = Field(description="File inside the repository.")
    start: int = Field(1, ge=1, description="First line (1-based).")
    end: int | None = Field(None, ge=1, description="Last line (default: the end).")


class EditArgs(BaseModel):
    path: str = Field(description="File inside the repository.")
    old: str = Field(description="Exact text to replace; it must occur exactly once.")
    new: str = Field(description="The replacement.")


class WriteArgs(BaseModel):
    path: str = Field(description="File inside the repository (created or overwritten).")
    content: str


class TestArgs(BaseModel):
    paths: list[str] = Field(default_factory=list, description="Test files or node ids (default: all tests).")


class SubmitArgs(BaseModel):
    summary: str = Field("", description="What was changed and why.")


def list_files(tree: Worktree, args: ListArgs) -> list[str]:
    base = tree.path(args.path)
    return sorted(p.relative_to(tree.root).as_posix() + ("/" if p.is_dir() else "") for p in base.iterdir())[:500]


def read_file(tree: Worktree, args: ReadArgs) -> str:
    lines = tree.path(args.path).read_text(errors="replace").splitlines()
    end = min(args.end or len(lines), len(lines))
    return "\n".join(f"{n:5d}  {lines[n - 1]}" for n in range(args.start, end + 1)) or "(no lines in that range)"


def edit_file(tree: Worktree, args: EditArgs) -> str:
    target = tree.path(args.path)
    text = target.read_text()
    count = text.count(args.old)
    if count != 1:
        return f"not edited: the old text occurs {count} times in {args.path} (it must occur exactly once)"
    target.write_text(text.replace(args.old, args.new, 1))
    return f"edited {args.path}"


def write_file(tree: Worktree, args: WriteArgs) -> str:
    target = tree.path(args.path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(args.content)
    return f"wrote {args.path} ({len(args.content)} characters)"


def run_tests(tree: Worktree, env: RunTestsEnv, args: TestArgs) -> dict:
    """The test command over the worktree's files in the sandbox; exit code and the output's tail."""
    script = "\n".join(["exec 2>&1", f"export PATH={shlex.quote(env.bin)}:\"$PATH\"",
                        'export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"',
                        " ".join([env.command, *map(shlex.quote, args.paths)])]) + "\n"
    limits = env.limits.model_copy(update={"extra_ro_paths": [*env.limits.extra_ro_paths, *env.readonly]})
    result = env.sandbox().run(["bash", SCRIPT], files={**tree.files(), SCRIPT: script.encode()}, limits=limits)
    output = result.stdout + result.stderr
    return {"exit_code": result.returncode, "timed_out": result.timed_out,
            "output": output[-OUTPUT_CHARS:] if len(output) > OUTPUT_CHARS else output}


def repair_tools(tree: Worktree, env: RunTestsEnv) -> list[Tool]:
    """The worktree tools, bound to ``tree`` and ``env``."""
    writes = {"sandbox"}
    return [
        Tool("list_files", "List a folder of the repository.", ListArgs, lambda a: list_files(tree, a), "repair",
             {"read_files"}),
        Tool("read_file", "Read lines of a file of the repository, numbered.", ReadArgs,
             lambda a: read_file(tree, a), "repair", {"read_files"}),
        Tool("edit_file", "Replace one exact occurrence of text in a file.", EditArgs,
             lambda a: edit_file(tree, a), "repair", writes),
        Tool("write_file", "Create or overwrite a file.", WriteArgs, lambda a: write_file(tree, a), "repair", writes),
        Tool("run_tests", "Run the repository's tests in the sandbox (no network).", TestArgs,
             lambda a: run_tests(tree, env, a), "repair", writes),
        Tool("submit", "Submit the current changes as the fix and stop.", SubmitArgs,
             lambda a: f"{SUBMITTED}: {a.summary}", "repair", {"compute"}),
    ]
