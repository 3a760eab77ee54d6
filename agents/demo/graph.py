"""The demo graph: ``plan`` asks the model (or the offline policy) for an expression, ``act`` runs the calculator."""

from __future__ import annotations

import json
import re
import time
from typing import Any, TypedDict

from langgraph.graph import StateGraph

from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.demo.calculator import CALCULATOR_TOOL, calculate, parse_expression
from agents.demo.config import DemoConfig
from agents.runtime.graph import linear_graph, run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.models.parsing import complete_parsed
from agents.runtime.progress import Progress
from agents.runtime.run import Run

OFFLINE_POLICY = "offline policy: expression extracted from the question"
SYSTEM_PROMPT = ("You answer arithmetic questions. Call the calculator tool with the expression to evaluate, "
                 "or reply with only the expression.")
EXPRESSION_PATTERN = re.compile(r"[-+*/%().\d\s]*\d[-+*/%().\d\s]*")


class DemoState(TypedDict, total=False):
    question: str
    expression: str
    source: str
    answer: float | int | None
    error: str


def parse_plan(text: str) -> str:
    """The expression from a calculator tool call (as JSON) or from a reply that is only an expression."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and data.get("tool") == "calculator":
        expression = str(data.get("arguments", {}).get("expression", ""))
    elif isinstance(data, dict):
        raise ValueError(f"expected the calculator tool, got a call to {data.get('tool')!r}")
    else:
        expression = text.strip().strip("`")
    parse_expression(expression)
    return expression


def offline_expression(question: str) -> str:
    """The offline policy: the longest arithmetic-looking stretch of the question."""
    candidates = [c.strip() for c in EXPRESSION_PATTERN.findall(question)]
    for candidate in sorted(candidates, key=len, reverse=True):
        try:
            parse_expression(candidate)
            return candidate
        except ValueError:
            continue
    raise UserError(f"the offline policy found no arithmetic expression in {question!r}; pass --model to ask an LLM")


def build_graph(run: Run, model: ChatModel | None, config: DemoConfig) -> StateGraph:
    """Two nodes: plan (one model call, or the offline policy) and act (one tool call)."""

    def plan(state: DemoState) -> DemoState:
        time.sleep(config.step_delay_s)
        if model is None:
            return {"expression": offline_expression(state["question"]), "source": OFFLINE_POLICY}
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": state["question"]}]
        expression = complete_parsed(model, messages, parse_plan, tools=[CALCULATOR_TOOL])
        return {"expression": expression, "source": f"llm: {model.name}"}

    def act(state: DemoState) -> DemoState:
        time.sleep(config.step_delay_s)
        started = time.perf_counter()
        try:
            answer, error = calculate(state["expression"]), ""
        except ValueError as problem:
            answer, error = None, str(problem)
        run.emit("tool.call", tool="calculator", arguments={"expression": state["expression"]},
                 result=answer, error=error, duration_s=round(time.perf_counter() - started, 6))
        return {"answer": answer, "error": error}

    return linear_graph(DemoState, [("plan", plan), ("act", act)])


def execute(run: Run, model: ChatModel | None) -> Report:
    """Run (or resume) the demo graph and report its answer."""
    config = DemoConfig(**run.config)
    with Progress("demo", total=2) as progress:
        state = run_graph(build_graph(run, model, config), run, {"question": config.question}, progress=progress)
        progress.update(best=state.get("answer"))
    row = {"question": state["question"], "expression": state.get("expression"), "answer": state.get("answer"),
           "error": state.get("error") or None}
    summary = {"status": "answered" if state.get("answer") is not None else "tool error",
               "answer": state.get("answer"), "best": state.get("answer"), "policy": state.get("source"),
               **run.totals.as_dict()}
    return Report(summary=summary, rows=[row], title=f"demo run {run.id}")
