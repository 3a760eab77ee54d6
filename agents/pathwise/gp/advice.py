"""The offline critics' advice: plain lines a person can read and the offline policy and world model parse.

Policy critic -> policy: which operators' children beat their parents in the last step, which did not,
and which parents had only failed children (the policy favours, damps and avoids them). World-model
critic -> world model: the primitives in the best rollout's tree but not in the worst's, and the other
way round (new subtrees favour and avoid them). A line the reader does not know is ignored, so advice
written by a model for the model-driven roles does no harm here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

IMPROVED = "improved on their parents"
NOT_IMPROVED = "no better than their parents"
AVOID_PARENTS = "avoid parents (every child failed)"
FAVOUR = "favour primitives"
AVOID = "avoid primitives"
FAVOURED_WEIGHT = 2.0
AVOIDED_WEIGHT = 0.5


@dataclass
class PolicyAdvice:
    """What the policy critic said about the last step."""

    improved: set[str] = field(default_factory=set)
    not_improved: set[str] = field(default_factory=set)
    avoid_parents: set[str] = field(default_factory=set)

    def operator_weight(self, operation: str) -> float:
        """How much more (or less) often the policy should choose ``operation`` than its base rate."""
        if operation in self.improved:
            return FAVOURED_WEIGHT
        return AVOIDED_WEIGHT if operation in self.not_improved else 1.0


def write_lines(entries: dict[str, list[str]]) -> str:
    """``label: a, b`` lines for the non-empty entries (names sorted, each once)."""
    return "\n".join(f"{label}: {', '.join(sorted(set(names)))}" for label, names in entries.items() if names)


def read_lines(text: str) -> dict[str, set[str]]:
    """The ``label: a, b`` lines of ``text`` as label -> names."""
    entries: dict[str, set[str]] = {}
    for line in text.splitlines():
        label, _, names = line.partition(":")
        if names:
            entries[label.strip()] = {name.strip() for name in names.split(",") if name.strip()}
    return entries


def policy_advice(improved: list[str], not_improved: list[str], failed_parents: list[str]) -> str:
    return write_lines({IMPROVED: improved, NOT_IMPROVED: not_improved, AVOID_PARENTS: failed_parents})


def read_policy_advice(text: str) -> PolicyAdvice:
    entries = read_lines(text)
    return PolicyAdvice(entries.get(IMPROVED, set()), entries.get(NOT_IMPROVED, set()),
                        entries.get(AVOID_PARENTS, set()))


def world_model_advice(best: set[str], worst: set[str]) -> str:
    """Advice from the primitives of the best and the worst rollout's trees."""
    return write_lines({FAVOUR: sorted(best - worst), AVOID: sorted(worst - best)})


def primitive_weights(text: str) -> dict[str, float]:
    """The world model's weights for new subtrees' primitives (1 unless the advice names them)."""
    entries = read_lines(text)
    weights = {name: AVOIDED_WEIGHT for name in entries.get(AVOID, set())}
    weights.update({name: FAVOURED_WEIGHT for name in entries.get(FAVOUR, set())})
    return weights
