"""Prompts for synthesis, test-layout scripts, split requests and the judges."""

from __future__ import annotations

from pathlib import Path

from benchmarks.drc.spec import TaskSpec

REFERENCE = (Path(__file__).parent / "drc_reference.md").read_text()

SYSTEM = ("You are an expert in chip physical verification. You write KLayout DRC decks (Ruby) and "
          "Python layout scripts that use the klayout.db module.")


def spec_text(spec: TaskSpec) -> str:
    layers = "\n".join(f"- {layer.name}: GDS layer {layer.layer}, datatype {layer.datatype}" for layer in spec.layers)
    rules = "\n".join(f"- category \"{rule.category}\": {rule.description}" for rule in spec.rules)
    return f"Task {spec.id}: {spec.title}\n{spec.description}\nLayers:\n{layers}\nRules:\n{rules}"


def synthesis_messages(spec: TaskSpec, with_reference: bool) -> list[dict]:
    reference = f"\n\nDRC reference:\n{REFERENCE}" if with_reference else ""
    user = (f"{spec_text(spec)}\n\nWrite one KLayout DRC deck that checks exactly these rules. Start with "
            "source($input) and report(\"title\", $output); declare layers with input(layer, datatype); report "
            "each rule with .output(\"CATEGORY\", \"description\") using exactly the category names above, no "
            "others; give distances with explicit units (0.14.um). Reply with the deck in one ```ruby block."
            f"{reference}")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


TEST_SCRIPT_RULES = (
    "Write a Python script that uses `import klayout.db as db` (dbu 0.001 µm, integer coordinates in nm) and "
    "writes GDS files into the folder `tests/` (create it), one top cell per layout, plus `tests/expected.json` "
    "mapping each GDS file name to an object {CATEGORY: true|false} for every rule category, where true means "
    "the layout violates that rule. Keep shapes that test different rules at least 5 µm apart. "
    "Reply with the script in one ```python block.")


def tests_messages(spec: TaskSpec, count: int) -> list[dict]:
    user = (f"{spec_text(spec)}\n\nWe need {count} small test layouts that tell a correct deck from a subtly wrong "
            "one: include layouts exactly at each limit (they pass), just below it (they fail), and layouts that "
            f"pass everything. {TEST_SCRIPT_RULES}")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def split_messages(spec: TaskSpec, decks: list[str], history: str) -> list[dict]:
    shown = "\n\n".join(f"Deck {index + 1}:\n```ruby\n{deck}```" for index, deck in enumerate(decks))
    user = (f"{spec_text(spec)}\n\nThese decks give identical verdicts on every test so far:\n{history}\n\n{shown}\n\n"
            "Find ONE layout on which at least two of them report different verdicts, and on which you know the "
            "correct verdict from the rules. Think about where they differ (limits, layers, check types, "
            f"edge cases). {TEST_SCRIPT_RULES} Write exactly one layout.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def _candidates(decks: list[str]) -> str:
    return "\n\n".join(f"Candidate {index + 1}:\n```ruby\n{deck}```" for index, deck in enumerate(decks))


def judge_messages(spec: TaskSpec, decks: list[str], evidence: str) -> list[dict]:
    user = (f"{spec_text(spec)}\n\n{_candidates(decks)}\n\nLayouts on which the candidates disagree, with each candidate's "
            f"verdicts (violated categories) and the expected verdicts:\n{evidence}\n\n"
            "Which candidate implements the rules correctly? End your reply with `ANSWER: <number>`.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def blind_judge_messages(spec: TaskSpec, decks: list[str]) -> list[dict]:
    user = (f"{spec_text(spec)}\n\n{_candidates(decks)}\n\nWithout running them, which candidate implements the rules "
            "correctly? End your reply with `ANSWER: <number>`.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]
