"""`--backend swebench`: the whole evaluation handed to SWE-bench's own Docker harness
(``python -m swebench.harness.run_evaluation``), for users who want its exact images. It pulls them from
Docker Hub, so where Docker Hub cannot be reached it refuses at once with one line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from benchmarks.report import Report
from benchmarks.resolve.harness import ResolveConfig
from benchmarks.resolve.instances import Instance
from sandboxes.errors import UserError

from agents.runtime.run import Run

DOCKER_HUB = ("registry-1.docker.io", 443)


def check_reachable(timeout_s: float = 3.0) -> None:
    """A UserError unless Docker Hub's registry accepts a connection from here."""
    try:
        socket.create_connection(DOCKER_HUB, timeout=timeout_s).close()
    except OSError as error:
        raise UserError(f"--backend swebench needs Docker Hub ({DOCKER_HUB[0]}) for SWE-bench's images and it "
                        f"cannot be reached from here ({error.strerror or error}); use --backend local") from None


def run_swebench_harness(instances: list[Instance], run: Run, harness: ResolveConfig) -> Report:
    """Run SWE-bench's harness on the run's predictions in the run's artifacts folder; its run report is the
    summary (the per-instance logs stay in its own ``logs/run_evaluation``)."""
    check_reachable()
    dataset = run.artifacts / "swebench_dataset.json"
    dataset.write_text(json.dumps([i.data for i in instances]))
    command = [sys.executable, "-m", "swebench.harness.run_evaluation", "--dataset_name", str(dataset),
               "--predictions_path", str(run.artifacts / "predictions.jsonl"), "--run_id", run.id,
               "--max_workers", str(harness.workers), "--timeout", str(int(harness.limits.wall_s)),
               "--report_dir", str(run.artifacts)]
    result = subprocess.run(command, cwd=run.artifacts)
    reports = sorted(Path(run.artifacts).glob(f"*.{run.id}.json"))
    if result.returncode != 0 or not reports:
        raise UserError(f"SWE-bench's harness failed (exit {result.returncode}); its logs are in {run.artifacts}")
    summary = json.loads(reports[-1].read_text())
    return Report(summary={"backend": "swebench", "swebench_report": str(reports[-1]),
                           **{k: v for k, v in summary.items() if not k.endswith("_ids")}},
                  rows=[{"instance_id": i, "status": "resolved" if i in summary["resolved_ids"] else "not resolved"}
                        for i in summary["submitted_ids"]], title="SWE-bench harness (Docker)")
