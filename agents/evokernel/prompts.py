"""The messages EvoKernel sends: system, draft, refine and attempt summary."""

from __future__ import annotations

from typing import Any, Sequence

SYSTEM = """You are an expert kernel engineer writing kernels for the {target} target.
{language}
A solution is one Python file in KernelBench format: it defines `class ModelNew(nn.Module)` with the same
constructor arguments and forward signature as the reference `Model`, and computes the same result with the
target's kernel language instead of the framework's own compute operations.
Answer with exactly one ```python code block holding the complete solution file."""

SUMMARY_SYSTEM = """You distil kernel-writing attempts into short, reusable lessons for future tasks.
Answer with a line `LESSON: <one or two sentences a different task could use>` and, only when the attempt
was faster than the kernel it started from, a line `PRACTICE: <the optimisation that made it faster>`."""


def system_message(target: str, language: str) -> dict[str, str]:
    return {"role": "system", "content": SYSTEM.format(target=target, language=language.strip())}


def section(title: str, items: Sequence[str]) -> str:
    """A titled block of memory items (empty when there are none)."""
    if not items:
        return ""
    body = "\n\n".join(f"[{i + 1}] {item}" for i, item in enumerate(items))
    return f"## {title}\n{body}\n\n"


def guidance_section(guidance: str | None) -> str:
    """The user's latest guidance for this run (empty when there is none)."""
    return f"## Guidance from the user who steers this run\n{guidance.strip()}\n\n" if guidance else ""


def draft_message(task_source: str, api: Sequence[str], experiences: Sequence[str],
                  last_attempt: dict[str, Any] | None, guidance: str | None = None) -> dict[str, str]:
    """Ask for a first correct kernel, with API templates, retrieved experiences, the last failure and guidance."""
    text = f"## Reference program\n```python\n{task_source.strip()}\n```\n\n"
    text += section("API templates of the target language", api)
    text += section("Experiences from earlier attempts (this and other tasks)", experiences)
    if last_attempt:
        text += (f"## Your previous attempt failed ({last_attempt['status']})\n{last_attempt['feedback']}\n"
                 f"```python\n{last_attempt['code']}\n```\n\n")
    text += guidance_section(guidance)
    text += "Write a correct ModelNew for this reference. Correctness comes first."
    return {"role": "user", "content": text}


def refine_message(task_source: str, start: dict[str, Any], children: Sequence[str], examples: Sequence[str],
                   bottleneck_examples: Sequence[str], api: Sequence[str], guidance: str | None = None
                   ) -> dict[str, str]:
    """Ask for a faster kernel than the chosen start point, with profiler feedback, retrieved items and guidance."""
    text = f"## Reference program\n```python\n{task_source.strip()}\n```\n\n"
    text += (f"## Start point (correct, {start['latency']})\nProfiler: {start['profile']}\n"
             f"```python\n{start['code']}\n```\n\n")
    text += section("Earlier refinements of this start point", children)
    text += section(f"Examples that relieved a {start['bottleneck'] or 'similar'} bottleneck", bottleneck_examples)
    text += section("Refinement traces and best practices", examples)
    text += section("API templates of the target language", api)
    text += guidance_section(guidance)
    text += "Write a faster ModelNew that stays correct. Keep what works; change what the profiler blames."
    return {"role": "user", "content": text}


def summary_messages(task: str, stage: str, code: str, status: str, feedback: str,
                     outcome: str) -> list[dict[str, str]]:
    """Ask the model to turn one attempt into a lesson (and a practice when it got faster)."""
    text = (f"Task: {task}. Stage: {stage}. Verdict: {status}. {outcome}\nVerifier feedback:\n{feedback}\n"
            f"```python\n{code}\n```")
    return [{"role": "system", "content": SUMMARY_SYSTEM}, {"role": "user", "content": text}]
