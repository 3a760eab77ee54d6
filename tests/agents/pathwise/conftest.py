"""Scripted roles for PathWise tests: replies chosen by which role is asking (the LLM is the only fake)."""

import itertools
import json
import re

import pytest

from agents.runtime.models.scripted import ScriptedModel

POLICY_ADVICE = "POLICY-ADVICE: prefer parents with low gaps"
CODE_ADVICE = "CODE-ADVICE: keep the ratio, tune its exponent"
EXPONENTS = (1.0, 0.5, 2.0, 1.5, 0.8, 3.0, 1.2, 0.3, 2.5, 0.9, 1.8, 0.6)


def kp_code(exponent: float) -> str:
    return ("import numpy as np\n\n"
            "def select_next_item(remaining_capacity, weights, values):\n"
            f"    return int(np.argmax(values / weights ** {exponent}))\n")


class RoleScript:
    """Answers as policy, world model or critic depending on the system prompt."""

    def __init__(self, fail_at: int | None = None, exponents: tuple[float, ...] = EXPONENTS):
        self.exponents = itertools.cycle(exponents)
        self.fail_at = fail_at
        self.count = 0

    def __call__(self, messages):
        self.count += 1
        if self.fail_at is not None and self.count >= self.fail_at:
            raise RuntimeError("simulated kill")
        system, user = messages[0]["content"], messages[-1]["content"]
        if "policy agent" in system:
            ids = re.findall(r"^### (\S+) — gap", user, flags=re.MULTILINE)
            actions = [{"parents": ids[:1], "directive": "sharpen the ratio"},
                       {"parents": ids[:2], "directive": "blend the two rules"}]
            return "```json\n" + json.dumps(actions) + "\n```"
        if "policy critic" in system:
            return POLICY_ADVICE
        if "code critic" in system:
            return CODE_ADVICE
        exponent = next(self.exponents)
        return f"DESCRIPTION: value over weight to the power {exponent}\n```python\n{kp_code(exponent)}```"


def role_roles(model: ScriptedModel) -> dict[str, list[str]]:
    """The user prompts each role received, keyed by role."""
    prompts: dict[str, list[str]] = {}
    for call in model.calls:
        system = call["messages"][0]["content"]
        role = next(r for r in ("policy agent", "world model", "policy critic", "code critic") if r in system)
        prompts.setdefault(role, []).append(call["messages"][-1]["content"])
    return prompts


def scripted_model(fail_at: int | None = None, exponents: tuple[float, ...] = EXPONENTS) -> ScriptedModel:
    return ScriptedModel([RoleScript(fail_at, exponents)] * 400)


@pytest.fixture
def scripted():
    return scripted_model


@pytest.fixture
def pathwise_env(isolated_agent_env, monkeypatch):
    monkeypatch.setenv("AGENT_SANDBOX", "local")
    return isolated_agent_env


@pytest.fixture(scope="module")
def module_env(tmp_path_factory):
    """Like ``pathwise_env`` for a whole module, so one search can serve several tests."""
    with pytest.MonkeyPatch.context() as patch:
        root = tmp_path_factory.mktemp("pathwise")
        patch.setenv("AGENT_RUNS_DIR", str(root / "runs"))
        patch.setenv("AGENT_SANDBOX", "local")
        patch.delenv("AGENT_MODEL", raising=False)
        yield root
