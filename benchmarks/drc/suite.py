"""The built-in suite: seeded tasks and layouts, cross-checked by the gold decks, shipped as JSONL.

Regenerate (and cross-check with KLayout) with ``python -m benchmarks.drc.suite``; check that the
shipped file is what the generator produces with ``python -m benchmarks.drc.suite --check``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

from benchmarks.drc.layouts import build_layouts
from benchmarks.drc.spec import DrcTask
from benchmarks.drc.tasks import FACTORS, TEMPLATES, make_spec
from sandboxes.errors import UserError

SEED = 2024
PER_TEMPLATE = 14
HERE = Path(__file__).parent
SUITE_PATH = HERE / "suite.jsonl"
MANIFEST_PATH = HERE / "suite_manifest.json"


def generate_suite(seed: int = SEED, per_template: int = PER_TEMPLATE) -> list[DrcTask]:
    """Every template over a seeded sample of (layer choice, scale) combinations."""
    tasks = []
    for template in TEMPLATES:
        combos = [(choice, factor) for choice in template.choices for factor in FACTORS]
        random.Random(f"{seed}-{template.name}").shuffle(combos)
        for index, (choice, factor) in enumerate(combos[:per_template]):
            rng = random.Random(f"{seed}-{template.name}-{index}")
            checks = template.build(choice, factor, rng)
            task_id = f"{template.name}-{index:02d}"
            tasks.append(DrcTask(spec=make_spec(task_id, template, choice, checks),
                                 layouts=build_layouts(checks, rng)))
    return tasks


def suite_text(tasks: list[DrcTask]) -> str:
    return "".join(task.model_dump_json() + "\n" for task in tasks)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def load_suite(path: Path = SUITE_PATH, verify: bool = True) -> list[DrcTask]:
    """The shipped suite; with ``verify`` the file must match the manifest's checksum."""
    if not path.is_file():
        raise UserError(f"DRC suite file {path} is missing; regenerate it with `python -m benchmarks.drc.suite`")
    text = path.read_text()
    if verify and path == SUITE_PATH:
        expected = json.loads(MANIFEST_PATH.read_text())["sha256"]
        if digest(text) != expected:
            raise UserError(f"{path} does not match its checksum; regenerate with `python -m benchmarks.drc.suite`")
    return [DrcTask.model_validate_json(line) for line in text.splitlines() if line.strip()]


def select_tasks(tasks: list[DrcTask], selection: str) -> list[DrcTask]:
    """``builtin`` (all), ``builtin:N`` (a seeded subset of N), or comma-separated ids or families."""
    if selection == "builtin":
        return tasks
    if selection.startswith("builtin:"):
        count = selection.split(":", 1)[1]
        if not count.isdigit() or int(count) < 1:
            raise UserError(f"builtin:N takes a positive number of tasks, not {count!r}")
        count = int(count)
        chosen = sorted(random.Random(SEED).sample(range(len(tasks)), min(count, len(tasks))))
        return [tasks[index] for index in chosen]
    wanted = {part.strip() for part in selection.split(",") if part.strip()}
    picked = [task for task in tasks if task.spec.id in wanted or task.spec.family in wanted]
    if not picked:
        raise UserError(f"no DRC task matches {selection!r} (use builtin, builtin:N, task ids or families)")
    return picked


def cross_check(tasks: list[DrcTask], runner) -> list[str]:
    """Run every gold deck on its layouts in one batch; describe each label the gold deck disagrees with."""
    jobs = [(task.spec.gold_deck, layout.gds) for task in tasks for layout in task.layouts]
    verdicts = iter(runner.evaluate(jobs))
    problems = []
    for task in tasks:
        for layout in task.layouts:
            verdict = next(verdicts)
            if not verdict.ok:
                problems.append(f"{task.spec.id}/{layout.name}: gold deck {verdict.status}: {verdict.error}")
                continue
            got = {category: verdict.violated(category) for category in layout.labels}
            if got != layout.labels:
                problems.append(f"{task.spec.id}/{layout.name}: expected {layout.labels}, gold reported {verdict.counts}")
    return problems


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare a regeneration with the shipped file")
    args = parser.parse_args(argv)
    tasks = generate_suite()
    text = suite_text(tasks)
    if args.check:
        shipped = json.loads(MANIFEST_PATH.read_text())["sha256"]
        print("identical" if digest(text) == shipped else "DIFFERENT from the shipped suite")
        raise SystemExit(0 if digest(text) == shipped else 1)
    from tools.drc.runner import DrcRunner

    problems = cross_check(tasks, DrcRunner())
    if problems:
        raise SystemExit("gold decks disagree with labels:\n" + "\n".join(problems[:50]))
    SUITE_PATH.write_text(text)
    layouts = sum(len(task.layouts) for task in tasks)
    MANIFEST_PATH.write_text(json.dumps({"seed": SEED, "tasks": len(tasks), "layouts": layouts,
                                         "sha256": digest(text)}, indent=1) + "\n")
    print(f"wrote {len(tasks)} tasks, {layouts} layouts, {len(text) // 1024} KiB to {SUITE_PATH}")


if __name__ == "__main__":
    main()
