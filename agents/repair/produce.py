"""Predictions made in the benchmark run: agentkiln's repair agent (one child `repair` run per instance, its
trajectory there) or an external command, each in a worktree of the instance's base commit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from benchmarks.repo.checkout import RepoCache
from benchmarks.resolve.envs import EnvCache
from benchmarks.resolve.harness import ResolveConfig, specs_of
from benchmarks.resolve.instances import Instance, Prediction, load_predictions
from benchmarks.resolve.specs import EnvSpec
from benchmarks.resolve.tree import export_tree

from agents.repair.config import BenchResolveConfig, RunRepairConfig
from agents.repair.external import run_agent_cmd
from agents.repair.worktree import Worktree
from agents.runtime.budget import BudgetExceeded
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run

REPAIR_MODEL = "agentkiln-repair"
AGENT_CMD_MODEL = "agent-cmd"
MADE = "made.jsonl"
"""Predictions made so far in this run, one line per finished instance."""


def checkout(instance: Instance, cache: RepoCache, dest: Path) -> Path:
    """The instance's files at its base commit in ``dest`` (made once)."""
    if not dest.is_dir():
        clone = cache.clone(instance.repo)
        export_tree(clone, cache.snapshot(instance.repo, instance.base_commit).commit, dest)
    return dest


def repair_config(instance: Instance, source: Path, spec: EnvSpec, envs: EnvCache, harness: ResolveConfig,
                  config: BenchResolveConfig) -> RunRepairConfig:
    """The child run's config: the instance's environment and test command; sandboxed calls approved (the
    benchmark runs unattended)."""
    env = envs.get(instance.repo, instance.version, spec)
    command = "; ".join([*spec.eval_commands, spec.test_cmd])
    return RunRepairConfig(repo=str(source), issue=instance.problem_statement, test_cmd=command,
                           max_steps=config.repair_max_steps, yes=True, env_bin=env.bin, readonly=list(env.readonly),
                           sandbox=harness.sandbox, test_wall_s=harness.limits.wall_s)


def repair_one(instance: Instance, child_config: RunRepairConfig, run: Run, model: ChatModel) -> str:
    """One child `repair` run; its patch. A spent budget stops the benchmark too."""
    from agents.runtime.launch import execute_run

    child = Run.create("repair", child_config)
    child.update_meta(model=model.name, parent=run.id, instance_id=instance.instance_id)
    run.emit("resolve.repair", instance_id=instance.instance_id, run_id=child.id)
    execute_run(child, model)
    if child.status == "stopped":
        raise BudgetExceeded(f"the budget ran out while repairing {instance.instance_id} (run {child.id})")
    patch = child.artifacts / "patch.diff"
    return patch.read_text() if patch.is_file() else ""


def produce_predictions(config: BenchResolveConfig, instances: list[Instance], run: Run, model: ChatModel | None,
                        harness: ResolveConfig) -> dict[str, Prediction]:
    """One prediction per instance, made one instance after another; each is appended to ``made.jsonl`` at
    once, so a resumed run makes only those still missing."""
    cache = RepoCache(harness.cache_dir, harness.mirrors, harness.allow_clone)
    specs, envs = specs_of(instances, harness), EnvCache(harness.env_dir)
    made = run.artifacts / MADE
    predictions = load_predictions(made) if made.is_file() else {}
    for instance in (i for i in instances if i.instance_id not in predictions):
        folder = run.artifacts / "agent" / instance.instance_id
        source = checkout(instance, cache, folder / "base")
        if config.agent == "repair":
            child = repair_config(instance, source, specs[instance.instance_id], envs, harness, config)
            patch, name = repair_one(instance, child, run, model), REPAIR_MODEL
        else:
            shutil.rmtree(folder / "worktree", ignore_errors=True)  # an attempt cut short starts afresh
            tree = Worktree.create(folder / "worktree", source)
            patch = run_agent_cmd(config.agent_cmd, tree, instance.instance_id, instance.problem_statement,
                                  run.artifacts / "agent-cmd")
            name = AGENT_CMD_MODEL
        predictions[instance.instance_id] = Prediction(instance.instance_id, name, patch)
        with made.open("a") as out:
            out.write(json.dumps(predictions[instance.instance_id].to_row()) + "\n")
    return {i.instance_id: predictions[i.instance_id] for i in instances}
