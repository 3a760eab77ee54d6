"""Prompts of the PathWise roles and the parsers of their replies.

Routing is structural: ``policy_messages`` takes only policy advice and ``world_model_messages``
only world-model advice, so neither critic's advice can reach the other role's prompt.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from benchmarks.ahd.problem import Problem
from memory.entailment.graph import HeuristicNode

CODE_BLOCK = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.DOTALL)
JSON_BLOCK = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)
PERTURBATION = ("Prompt perturbation: set the parents' approach aside and try a mechanism they do not use "
                "(a different scoring principle, not a re-tuning).")
CODE_FORMAT = ("Reply with one line `DESCRIPTION: <one sentence describing the idea>` followed by one "
               "```python block that defines `{function}` with exactly this signature:\n{signature}\n"
               "Use only numpy and the standard library. The function must be fast and deterministic.")


@dataclass
class Action:
    """A policy decision: derive a new heuristic from ``parents`` following ``directive``."""

    parents: list[str]
    directive: str


@dataclass
class Candidate:
    """A rollout of the world model: code with a one-sentence description."""

    code: str
    description: str


def score_text(node: HeuristicNode) -> str:
    return f"gap {node.score:.4f}%" if node.score is not None else f"FAILED ({node.failure})"


def node_card(node: HeuristicNode, with_code: bool = True, code_chars: int = 1500) -> str:
    """How one heuristic appears in a prompt: id, score, description, rationale, parents, code."""
    parents = ", ".join(f"{p['id']} ({'gap %.4f%%' % p['score'] if p['score'] is not None else 'failed'})"
                        for p in node.parents) or "none"
    lines = [f"### {node.id} — {score_text(node)}", f"description: {node.description}",
             f"rationale: {node.rationale or '-'}", f"parents: {parents}"]
    if with_code:
        lines.append(f"```python\n{node.code[:code_chars]}\n```")
    return "\n".join(lines)


def system_message(problem: Problem, role: str) -> dict[str, str]:
    return {"role": "system", "content": f"You are the {role} in an automated heuristic design search.\n"
                                         f"Problem: {problem.description}\nScores are gaps in percent: lower is better."}


def policy_messages(problem: Problem, nodes: list[HeuristicNode], n_actions: int, advice: str) -> list[dict]:
    """The policy prompt: the graph state and the policy critic's advice, nothing else."""
    state = "\n\n".join(node_card(n) for n in nodes)
    advice_text = f"\n\nAdvice from the policy critic on your last actions:\n{advice}" if advice else ""
    task = (f"The entailment graph below shows heuristics, their scores and how each was derived.\n\n{state}"
            f"{advice_text}\n\nPropose {n_actions} actions. Each action picks a parent set (1-3 node ids from "
            "the graph) and a natural-language directive saying how to derive a better heuristic from them. "
            'Reply with a ```json block: [{"parents": ["id", ...], "directive": "..."}, ...]')
    return [system_message(problem, "policy agent"), {"role": "user", "content": task}]


def world_model_messages(problem: Problem, parents: list[HeuristicNode], directive: str, advice: str,
                         perturb: bool) -> list[dict]:
    """The world-model prompt: parents' code, the directive and the world-model critic's advice only."""
    cards = "\n\n".join(node_card(p) for p in parents) or "(no parents: write from scratch)"
    parts = [f"Parent heuristics:\n\n{cards}", f"Directive: {directive}"]
    if advice:
        parts.append(f"Advice from the code critic on earlier rollouts:\n{advice}")
    if perturb:
        parts.append(PERTURBATION)
    parts.append(CODE_FORMAT.format(function=problem.function_name, signature=problem.signature))
    return [system_message(problem, "world model (heuristic writer)"), {"role": "user", "content": "\n\n".join(parts)}]


def policy_critic_messages(problem: Problem, outcomes: list[tuple[Action, float | None]]) -> list[dict]:
    lines = [f"- parents {a.parents}, directive: {a.directive!r} -> mean rollout gap "
             f"{'%.4f%%' % s if s is not None else 'all failed'}" for a, s in outcomes]
    task = ("These actions were just tried:\n" + "\n".join(lines) + "\n\nIn at most five sentences, advise "
            "the policy which parent sets and directions to pursue or avoid next.")
    return [system_message(problem, "policy critic"), {"role": "user", "content": task}]


def world_model_critic_messages(problem: Problem, best: tuple[str, str], worst: tuple[str, str]) -> list[dict]:
    task = (f"Best rollout ({best[1]}):\n```python\n{best[0]}\n```\n\nWorst rollout ({worst[1]}):\n```python\n"
            f"{worst[0]}\n```\n\nIn at most five sentences, advise the code writer what made the difference "
            "and what to do (or avoid) in the code it writes next.")
    return [system_message(problem, "code critic"), {"role": "user", "content": task}]


def parse_candidate(text: str, function_name: str) -> Candidate:
    """The code block and description of a world-model reply; ValueError if unusable."""
    blocks = CODE_BLOCK.findall(text)
    if not blocks:
        raise ValueError("no ```python code block in the reply")
    code = blocks[-1].strip() + "\n"
    tree = ast.parse(code)
    if not any(isinstance(n, ast.FunctionDef) and n.name == function_name for n in tree.body):
        raise ValueError(f"the code does not define {function_name}")
    match = re.search(r"DESCRIPTION:\s*(.+)", text)
    description = match.group(1).strip() if match else _docstring(tree, function_name)
    return Candidate(code, description)


def parse_actions(text: str, known: set[str], limit: int) -> list[Action]:
    """Actions from a policy reply; parents must be known node ids. ValueError if none is usable."""
    blocks = JSON_BLOCK.findall(text)
    data: Any = json.loads(blocks[0] if blocks else text)
    actions = []
    for item in data if isinstance(data, list) else []:
        parents = [p for p in item.get("parents", []) if p in known][:3]
        if parents and str(item.get("directive", "")).strip():
            actions.append(Action(parents, str(item["directive"]).strip()))
    if not actions:
        raise ValueError(f"no action names known parents; known ids: {sorted(known)}")
    return actions[:limit]


def _docstring(tree: ast.Module, function_name: str) -> str:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function_name:
            return (ast.get_docstring(node) or "no description").splitlines()[0]
    return "no description"
