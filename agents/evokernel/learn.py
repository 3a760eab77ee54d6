"""The learn step for one task: reward, experience summary, memory entries and the Q update."""

from __future__ import annotations

import math
from typing import Any

from agents.runtime.models.base import ChatModel, ModelReplyError
from agents.runtime.models.parsing import complete_parsed
from benchmarks.kernels.tasks import KernelTask
from memory.qmemory import EntryKind, MemoryEntry, QInherit, QUpdate

from agents.evokernel import prompts
from agents.evokernel.context import START_POINT, Deps, signature
from agents.evokernel.offline import ADOPT
from agents.evokernel.parsing import parse_summary
from agents.evokernel.state import REFINE
from agents.evokernel.records import (AttemptRecord, Candidate, Context, Judgement, Proposal, StartPoint,
                                     TaskState, Verdict)


def draft_reward(feasible: bool) -> float:
    """+1 for a feasible kernel (passes the checks, compiles, correct), else -1."""
    return 1.0 if feasible else -1.0


def refine_reward(feasible: bool, best_ms: float | None, latency_ms: float | None) -> float:
    """-1 if infeasible, else tanh(log b - log l) with b the best latency so far and l the new one."""
    if not feasible or not latency_ms or not best_ms:
        return -1.0
    return math.tanh(math.log(best_ms) - math.log(latency_ms))


def attempt_record(task: TaskState, candidate: Candidate, verdict: Verdict) -> AttemptRecord:
    """The attempt as the state and the report keep it, with its raw reward."""
    stage = candidate["stage"]
    reward = (refine_reward(verdict["feasible"], task["best_ms"], verdict["latency_ms"]) if stage == REFINE
              else draft_reward(verdict["feasible"]))
    return {**{k: candidate.get(k) for k in Proposal.__annotations__},
            **{k: verdict.get(k) for k in Judgement.__annotations__}, "reward": reward,
            "seconds": verdict.get("seconds") or 0.0}


def attempt_key(run_id: str, kernel: KernelTask, record: AttemptRecord) -> str:
    return f"{run_id}/{kernel.qualified_name}/{record['attempt']}"


def summarise(kernel: KernelTask, task: TaskState, record: AttemptRecord, deps: Deps,
              model: ChatModel | None, run_id: str, code: str) -> tuple[str, str | None] | None:
    """(lesson, practice) for the attempt's memory entries; None when there is nothing to write
    (no memory, or the entries exist because this step already ran before a resume). Safe in parallel."""
    if not deps.uses_memory or _trace(deps, attempt_key(run_id, kernel, record)) is not None:
        return None
    start = _start_point(task, record)
    return _summary(kernel, task, record, model, code, start, _improved(record, start), deps)


def learn(kernel: KernelTask, task: TaskState, context: Context, record: AttemptRecord, deps: Deps,
          run_id: str, code: str, summary: tuple[str, str | None] | None) -> AttemptRecord:
    """Write the attempt into memory and update Q, both once per attempt even when re-run on resume.
    Call it for one task at a time, in a fixed order, so that PopArt sees rewards in a fixed order."""
    if not deps.uses_memory:
        return record
    key = attempt_key(run_id, kernel, record)
    start = _start_point(task, record)
    existing = _trace(deps, key)
    record["memory_id"] = existing.id if existing is not None else _write_entries(
        kernel, task, record, deps, key, code, start,
        summary or _templated_summary(task, record, start, _improved(record, start)))
    if deps.config.method == "evokernel":
        _update_q(task, context, record, deps, key)
    return record


def _update_q(task: TaskState, context: Context, record: AttemptRecord, deps: Deps, key: str) -> None:
    """The reward credits the retrieved entries under the attempt's stage and its start point under the
    start-point stage; a kernel it produced inherits the start point's value (see ``QInherit``)."""
    sig, parent = context["signature"], record.get("start_memory_id")
    updates = [QUpdate(record["stage"], sig, list(context["q_ids"]))]
    inherits = []
    record["q_update"] = {"stage": record["stage"], "signature": sig, "ids": list(context["q_ids"])}
    if parent:
        updates.append(QUpdate(START_POINT, sig, [parent]))
        record["q_update"]["start_point"] = {"stage": START_POINT, "id": parent}
        if record["feasible"] and record.get("latency_ms"):
            child_sig = signature(deps.config, {**task, "last_status": record["status"]})
            inherits.append(QInherit(START_POINT, sig, parent, child_sig, record["memory_id"]))
            record["q_update"]["start_point"].update(child=record["memory_id"], child_signature=child_sig)
    popart = f"refine:{deps.config.target}" if record["stage"] == REFINE else None
    record["applied_reward"] = deps.memory.learn(key, updates, record["reward"], popart=popart, inherits=inherits)


def _trace(deps: Deps, key: str) -> MemoryEntry | None:
    found = deps.memory.store.find("source_key = ?", (f"{key}/trace",), limit=1)
    return found[0] if found else None


def _start_point(task: TaskState, record: AttemptRecord) -> StartPoint | dict:
    """The start point this attempt refined (empty for drafts)."""
    return next((p for p in task["start_points"] if p["attempt"] == record.get("start_point")), {})


def _improved(record: AttemptRecord, start: StartPoint) -> bool:
    start_ms = start.get("latency_ms")
    return bool(record["feasible"] and start_ms and record["latency_ms"] and record["latency_ms"] < start_ms)


def _write_entries(kernel: KernelTask, task: TaskState, record: AttemptRecord, deps: Deps, key: str,
                   code: str, start: StartPoint, summary: tuple[str, str | None]) -> int:
    """The attempt's trace and experience, and a best practice when it beat its start point."""
    start_ms, (lesson, practice) = start.get("latency_ms"), summary
    improved = _improved(record, start)
    common = {"task": kernel.qualified_name, "target": deps.config.target, "op_family": task["op_family"],
              "stage": record["stage"]}
    header = _header(kernel, task, record, start_ms)
    meta = {**{k: record.get(k) for k in ("template", "params", "feasible", "status", "latency_ms", "mutation",
                                          "attempt", "roofline_fraction")},
            "improved": improved, "new_best": _new_best(task, record), "start_bottleneck": start.get("bottleneck"),
            "gain": start_ms / record["latency_ms"] if improved else None}
    entries = [MemoryEntry(kind=EntryKind.TRACE, text=f"{header}\n```python\n{code}\n```", source_key=f"{key}/trace",
                           key_text=f"{header}\n{lesson}\n{code[:1500]}", bottleneck=record.get("bottleneck") or "",
                           parent_id=record.get("start_memory_id"), meta=meta, **common),
               MemoryEntry(kind=EntryKind.EXPERIENCE, text=f"[{kernel.name}, {task['op_family']}] {lesson}",
                           key_text=f"{header}\n{lesson}", source_key=f"{key}/experience",
                           meta={"status": record["status"], "feasible": record["feasible"]}, **common)]
    if improved and practice:
        entries.append(MemoryEntry(kind=EntryKind.PRACTICE, text=practice, key_text=f"{header}\n{practice}",
                                   source_key=f"{key}/practice", bottleneck=start.get("bottleneck") or "",
                                   meta={k: meta[k] for k in ("template", "params", "mutation", "gain",
                                                              "start_bottleneck", "new_best")},
                                   **common))
    return deps.memory.add(entries)[0]


def _new_best(task: TaskState, record: AttemptRecord) -> bool:
    """True when the attempt is the fastest correct kernel of its task so far."""
    latency = record.get("latency_ms")
    return bool(record["feasible"] and latency and (task["best_ms"] is None or latency < task["best_ms"]))


def _header(kernel: KernelTask, task: TaskState, record: AttemptRecord, start_ms: float | None) -> str:
    latency = f", {record['latency_ms']:.4g} ms" if record.get("latency_ms") else ""
    start = f" (start point {start_ms:.4g} ms)" if start_ms else ""
    change = _change_text(record)
    return (f"[trace] {kernel.name} ({task['op_family']}, {task['shape_bucket']}) {record['stage']} -> "
            f"{record['status']}{latency}{start}; {change}; bottleneck {record.get('bottleneck') or 'n/a'}")


def _change_text(record: AttemptRecord) -> str:
    mutation = record.get("mutation")
    if mutation and mutation["direction"] == ADOPT:
        return f"adopted a remembered kernel's parameters ({_params_text(record)})"
    if mutation:
        return f"{mutation['param']} {mutation['direction']} to {mutation['to']}"
    if record.get("params"):
        return f"{record['template']} with {_params_text(record)}"
    return "model-written kernel"


def _params_text(record: AttemptRecord) -> str:
    return ", ".join(f"{k}={v}" for k, v in (record.get("params") or {}).items())


def _summary(kernel: KernelTask, task: TaskState, record: AttemptRecord, model: ChatModel | None, code: str,
             start: StartPoint, improved: bool, deps: Deps) -> tuple[str, str | None]:
    """(lesson, practice): from the model when configured, else from the verdict (offline)."""
    start_ms = start.get("latency_ms")
    templated = _templated_summary(task, record, start, improved)
    if model is None or not deps.config.summarise_with_model:
        return templated
    outcome = (f"It ran in {record['latency_ms']:.4g} ms vs its start point {start_ms:.4g} ms."
               if record.get("latency_ms") and start_ms else "")
    messages = prompts.summary_messages(kernel.qualified_name, record["stage"], code[: deps.config.entry_chars],
                                        record["status"], record["feedback"][: deps.config.feedback_chars], outcome)
    try:
        lesson, practice = complete_parsed(model, messages, parse_summary)
    except ModelReplyError:
        return templated
    return lesson, (practice if improved else None)


def _templated_summary(task: TaskState, record: AttemptRecord, start: StartPoint,
                       improved: bool) -> tuple[str, str | None]:
    change, start_ms = _change_text(record), start.get("latency_ms")
    if not record["feasible"]:
        return f"{change} failed ({record['status']}): {record['feedback'][:300]}", None
    lesson = f"{change} is correct for {task['op_family']} ({task['shape_bucket']} elements)"
    if not improved:
        return lesson + (f"; {record['latency_ms']:.4g} ms, not faster than {start_ms:.4g} ms" if start_ms else ""), None
    practice = (f"On a {start.get('bottleneck') or 'n/a'}-bound {task['op_family']} kernel, {change} made it "
                f"{start_ms / record['latency_ms']:.2f}x faster ({start_ms:.4g} -> {record['latency_ms']:.4g} ms)")
    return lesson, practice
