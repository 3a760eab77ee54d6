"""The `repair` agent: localise with the RPG tools, read and edit files in a sandboxed worktree (a copy in the run
directory), run the tests in the sandbox and submit a diff. The run's artifacts hold ``worktree/``,
``patch.diff`` and ``trajectory.json`` (every message and tool result). There is no offline repair policy."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from benchmarks.report import Report
from sandboxes.base import Limits
from sandboxes.errors import UserError
from sandboxes.select import get_sandbox

from agents.chat.config import ChatConfig
from agents.chat.graph import ChatEnv
from agents.chat.policy import ApprovalPolicy
from agents.repair.config import RunRepairConfig
from agents.repair.graph import build_repair_graph
from agents.repair.tools import RunTestsEnv, repair_tools
from agents.repair.worktree import Worktree
from agents.runtime.graph import run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run

NO_OFFLINE_POLICY = ("the repair agent has no offline policy: give it a model (--model provider/name, "
                     "replay:FILE or scripted:FILE)")
SYSTEM = ("You fix an issue in a Python repository. Find the code at fault (search_node, fetch_node, "
          "explore_rpg, list_files, read_file), change it with edit_file or write_file, check the fix with "
          "run_tests, then call submit. Change only what the fix needs.")


def check(config: RunRepairConfig, model: ChatModel | None) -> None:
    """A model and an issue are needed before the run starts."""
    if model is None:
        raise UserError(NO_OFFLINE_POLICY)
    if not config.issue.strip():
        raise UserError("give the issue text (--issue TEXT or --issue @FILE)")
    if not Path(config.repo).expanduser().is_dir():
        raise UserError(f"--repo {config.repo}: not a directory")


def test_env(config: RunRepairConfig) -> RunTestsEnv:
    """How run_tests runs: the configured environment, else this Python and its installation."""
    here = sorted({os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix)})
    return RunTestsEnv(config.test_cmd, config.env_bin or os.path.dirname(sys.executable),
                   Limits(wall_s=config.test_wall_s, cpu_s=config.test_wall_s, memory_mb=4096, pids=512),
                   lambda: get_sandbox(config.sandbox), list(config.readonly) or here)


def make_env(config: RunRepairConfig, tree: Worktree, run: Run, model: ChatModel) -> ChatEnv:
    """Chat's environment over the repair tools (and the RPG tools over the worktree)."""
    tools = repair_tools(tree, test_env(config))
    if config.rpg:
        from agents.chat.toolset import repository_tools

        tools += repository_tools(str(tree.root))
    policy = ApprovalPolicy(ChatConfig(yes=config.yes))
    return ChatEnv(model=lambda: model, tools={tool.name: tool for tool in tools}, policy=policy, emit=run.emit)


def execute(run: Run, model: ChatModel | None) -> Report:
    """Repair (or go on repairing) the worktree; save the patch and the trajectory."""
    config = RunRepairConfig(**run.config)
    check(config, model)
    tree = Worktree.create(run.artifacts / "worktree", config.repo)
    env = make_env(config, tree, run, model)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": config.issue}]
    state = run_graph(build_repair_graph(env, tree, config.max_steps), run,
                      {"messages": messages, "decisions": [], "cancelled": False},
                      recursion_limit=4 * config.max_steps + 10)
    patch = state.get("patch", "")
    (run.artifacts / "patch.diff").write_text(patch)
    (run.artifacts / "trajectory.json").write_text(json.dumps(state.get("messages", []), indent=1) + "\n")
    changed = [line[len("+++ b/"):] for line in patch.splitlines() if line.startswith("+++ b/")]
    summary = {"ended": state.get("ended", ""), "turns": sum(m.get("role") == "assistant" for m in state["messages"]),
               "files_changed": len(changed), "patch": str(run.artifacts / "patch.diff"), **run.totals.as_dict()}
    return Report(summary=summary, rows=[{"file": path} for path in changed], title="repair")
