"""An external agent (``--agent-cmd "..."``): a shell command run on the host in a worktree of the instance, with
the issue in ``$AGENT_ISSUE_FILE``; whatever it leaves changed in the worktree is its patch.

It runs on the host, not in the sandbox: an external agent (mini-swe-agent, SWE-agent, ...) usually calls its
own model over the network and runs its own tools. Its output goes to ``agent-cmd/<instance>.log``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from agents.repair.worktree import Worktree

TIMEOUT_S = 3600


def run_agent_cmd(command: str, tree: Worktree, instance_id: str, issue: str, folder: Path) -> str:
    """Run ``command`` in ``tree``; the worktree's diff afterwards (a failing or timed-out command still gives
    what it changed; the log says how it ended)."""
    folder.mkdir(parents=True, exist_ok=True)
    issue_file = folder / f"{instance_id}.issue.md"
    issue_file.write_text(issue)
    env = {**os.environ, "AGENT_ISSUE_FILE": str(issue_file), "AGENT_INSTANCE_ID": instance_id,
           "AGENT_WORKTREE": str(tree.root)}
    with (folder / f"{instance_id}.log").open("w") as log:
        try:
            result = subprocess.run(["bash", "-c", command], cwd=tree.root, env=env, stdout=log,
                                    stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
            log.write(f"\n[agent-cmd exit {result.returncode}]\n")
        except subprocess.TimeoutExpired:
            log.write(f"\n[agent-cmd killed after {TIMEOUT_S} s]\n")
    return tree.diff()
