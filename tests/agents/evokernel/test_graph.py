"""A scripted model drives the full draft -> refine loop on two tasks through the real harness and NPU."""

from pathlib import Path

import pytest

from agents.evokernel.agent import AGENT_NAME, execute
from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.prompts import SUMMARY_SYSTEM
from agents.evokernel.taskinfo import task_bucket
from agents.evokernel.templates import NpuTemplates
from agents.runtime.launch import execute_run
from agents.runtime.models.accounting import AccountedModel
from agents.runtime.models.scripted import ScriptedModel
from agents.runtime.registry import register_agent
from agents.runtime.run import Run
from benchmarks.kernels.tasks import load_tasks
from memory.qmemory import PopArt, QMemory, QMemoryConfig, StateSignature
from tests.agents.evokernel.conftest import write_small_tasks

ELEMENTWISE = {"TILE_LENGTH": 2048, "BUFFER_NUM": 1, "BLOCK_DIM": 1}
REFINED = [{"TILE_LENGTH": 2048, "BUFFER_NUM": 2, "BLOCK_DIM": 1}, {"TILE_LENGTH": 2048, "BUFFER_NUM": 2, "BLOCK_DIM": 8}]


class Author:
    """Answers like a model would, keyed on the task in the prompt: relu's first draft is prose (twice,
    so the re-ask fails too), every other draft is a template kernel, refinements raise buffers then cores."""

    def __init__(self, tasks):
        self.tasks = {t.name: t for t in tasks}
        self.templates = NpuTemplates()
        self.drafts = {name: 0 for name in self.tasks}
        self.refines = {name: 0 for name in self.tasks}

    def __call__(self, messages):
        if messages[0]["content"] == SUMMARY_SYSTEM:
            return "LESSON: single-buffered tiles of 2048 are safe for element-wise ops.\nPRACTICE: more buffers"
        name = "relu" if "torch.relu" in messages[1]["content"] else "sigmoid"
        if "## Start point" in messages[1]["content"]:
            params = REFINED[min(self.refines[name], 1)]
            self.refines[name] += 1
        else:
            self.drafts[name] += 1
            if name == "relu" and self.drafts[name] <= 2:
                return "I would tile the input and use the vector unit."
            params = ELEMENTWISE
        task = self.tasks[name]
        return f"```python\n{self.templates.template_for(task).render(task, params)}```"


@pytest.fixture(scope="module")
def scripted_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("scripted")
    small_tasks = write_small_tasks(tmp_path)
    register_agent(AGENT_NAME, execute)
    config = EvoKernelConfig(target="npu", tasks=str(small_tasks), budget=3, workers=2,
                             memory=str(tmp_path / "memory.sqlite"), qmemory=QMemoryConfig(embedding="hashed-tfidf"))
    run = Run.create(AGENT_NAME, config, tmp_path / "runs")
    author = Author(load_tasks(str(small_tasks)))
    model = ScriptedModel([author] * 40)
    report = execute_run(run, AccountedModel(model, run))
    return run, report, config


def test_scripted_draft_and_refine_on_two_tasks(scripted_run):
    run, report, config = scripted_run
    rows = {row["task"]: row for row in report.rows}
    assert report.summary["correctness"] == 1.0 and report.summary["policy"] == "model: scripted"
    assert rows["tasks/relu"]["first_feasible_attempt"] == 2 and rows["tasks/sigmoid"]["first_feasible_attempt"] == 1
    attempts = run.events("evokernel.attempt")
    assert sorted((e["task"], e["attempt"]) for e in attempts) == [
        ("tasks/relu", 1), ("tasks/relu", 2), ("tasks/relu", 3),
        ("tasks/sigmoid", 1), ("tasks/sigmoid", 2), ("tasks/sigmoid", 3)]
    # the malformed reply was re-asked once, then became a failed attempt with feedback, not a crash
    first = next(e for e in attempts if (e["task"], e["attempt"]) == ("tasks/relu", 1))
    assert first["status"] == "parse_error" and first["reward"] == -1.0
    assert len(run.events("model.parse_error")) == 2
    assert "no code block defines" in (run.artifacts / "tasks_relu" / "attempt_001.py").read_text()
    assert report.summary["median_speedup_over_first_draft"] >= 1.0
    assert (run.artifacts / "learning_curve.png").exists()


def test_q_values_after_known_rewards(scripted_run):
    run, _, config = scripted_run
    memory = QMemory(config.memory, config.qmemory)
    # relu's second draft (after a parse error) saw the four round-1 entries, sigmoid's included: +1 each
    bucket = task_bucket((Path(config.tasks) / "relu.py").read_text())
    relu_sig = StateSignature("npu", "elementwise", "draft", bucket, "parse_error").key()
    rows = memory.store.query("SELECT memory_id, q, visits FROM q_values WHERE stage = 'draft' AND signature = ?",
                              (relu_sig,))
    assert len(rows) == 4 and all(q == pytest.approx(0.3) and visits == 1 for _, q, visits in rows)
    tasks_seen = {e.task for e in memory.store.get([r[0] for r in rows])}
    assert tasks_seen == {"tasks/relu", "tasks/sigmoid"}  # cross-task reuse: sigmoid's experience on relu
    # refine rewards are tanh(log b - log l), PopArt-normalised in the order they were learned
    refine_events = sorted((e for e in run.events("evokernel.attempt") if e["stage"] == "refine"),
                           key=lambda e: e["seq"])
    stats = PopArt(beta=0.1, min_std=0.01)
    for event in refine_events:
        assert event["applied_reward"] == pytest.approx(stats.normalise(event["reward"]))
    # replaying Q <- Q + 0.3 (r - Q) over the logged updates gives every stored Q-value exactly; a refinement
    # also updates its start point, and the kernel it produced starts from the start point's value
    expected: dict[tuple, float] = {}

    def step(key, reward):
        expected[key] = expected.get(key, 0.0) + 0.3 * (reward - expected.get(key, 0.0))

    for event in sorted(run.events("evokernel.attempt"), key=lambda e: e["seq"]):
        update, reward = event["q_update"], event["applied_reward"]
        for memory_id in dict.fromkeys(update["ids"]):
            step((update["stage"], update["signature"], memory_id), reward)
        start = update.get("start_point")
        if start:
            step((start["stage"], update["signature"], start["id"]), reward)
        if start and "child" in start:
            child = (start["stage"], start["child_signature"], start["child"])
            expected[child] = expected.get((start["stage"], update["signature"], start["id"]), 0.0)
            step(child, reward)
    assert any(key[0] == "start" for key in expected)
    stored = {(s, g, i): q for s, g, i, q in memory.store.query("SELECT stage, signature, memory_id, q FROM q_values")}
    assert stored == pytest.approx(expected) and len(stored) >= 6


def test_fewer_tasks_than_workers_fill_the_idle_worker_with_the_next_refinement(tmp_path):
    from tests.agents.evokernel.conftest import TASK

    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "relu.py").write_text(TASK.format(doc="ReLU activation.", expr="torch.relu(x)"))
    register_agent(AGENT_NAME, execute)
    config = EvoKernelConfig(target="npu", tasks=str(folder), budget=3, workers=2, memory=str(tmp_path / "m.sqlite"),
                             qmemory=QMemoryConfig(embedding="hashed-tfidf"))
    run = Run.create(AGENT_NAME, config, tmp_path / "runs")
    report = execute_run(run, None)
    assert report.summary["attempts"] == 3
    assert [e["attempt"] for e in run.events("evokernel.attempt")] == [1, 2, 3]
    # the draft alone, then both refinements of it at once: two rounds, not three
    assert len([e for e in run.events("node.end") if e["node"] == "learn"]) == 2
    assert len(run.events("evokernel.verified")) == 3


class Shown:
    """Records what the run's progress display is told."""

    def __init__(self):
        self.updates = []

    def update(self, **values):
        self.updates.append(values)


def test_progress_counts_attempts_and_expects_the_policy_to_stop_early(tmp_path):
    from agents.evokernel.context import Deps
    from agents.evokernel.graph import EvoKernelAgent
    from agents.evokernel.state import REFINE, new_task_state

    kernels = load_tasks("builtin:L1:relu,softmax")
    config = EvoKernelConfig(tasks="builtin:L1:relu,softmax", budget=30, offline_patience=4)
    run = Run.create(AGENT_NAME, config, tmp_path / "runs")
    shown = Shown()
    agent = EvoKernelAgent(run, config, kernels, env=None, deps=Deps(config, None, policy=object()), model=None,
                           progress=shown)
    fresh = new_task_state(kernels[0], "evokernel")
    refining = {**new_task_state(kernels[1], "evokernel"), "stage": REFINE, "attempts": 6, "best_attempt": 4,
                "first_feasible_attempt": 1}
    agent.show_progress({fresh["name"]: fresh, refining["name"]: refining})
    # a draft and its 4 refinements, plus 2 refinements left of the patience: not 30 x 2
    assert shown.updates[-1]["step"] == 6 and shown.updates[-1]["total"] == 6 + 5 + 2
    assert shown.updates[-1]["best"] == "1/2 correct, 0 done"
    agent._attempt_done(fresh["name"], {"verdict": {"feasible": True}})  # an attempt finished mid-round
    assert shown.updates[-1]["step"] == 7 and shown.updates[-1]["best"] == "2/2 correct, 0 done"
    agent.close()


def test_attempt_events_say_where_an_attempt_started_and_what_memory_it_saw(scripted_run):
    run, _, _ = scripted_run
    attempts = {(e["task"], e["attempt"]): e for e in run.events("evokernel.attempt")}
    first = attempts[("tasks/relu", 1)]
    assert "no code block defines" in first["feedback"] and Path(first["code_path"]).name == "attempt_001.py"
    refines = [e for e in attempts.values() if e["stage"] == "refine"]
    assert refines and all(attempts[(e["task"], e["start_point"])]["feasible"] for e in refines)
    assert all(e["reference_ms"] for e in attempts.values() if e["feasible"])
    retrieved = {(e["task"], e["attempt"]): e for e in run.events("evokernel.retrieved")}
    second = retrieved[("tasks/relu", 2)]
    assert second["stage"] == "draft" and len(second["entries"]) == 4
    assert [entry["id"] for entry in second["entries"]] == attempts[("tasks/relu", 2)]["q_update"]["ids"]
    assert all(entry["kind"] in ("experience", "trace") and entry["group"] == "items" for entry in second["entries"])


def test_a_task_whose_reference_disagrees_with_itself_stops_and_teaches_nothing(tmp_path):
    folder = write_small_tasks(tmp_path)
    (folder / "sigmoid.py").unlink()
    relu = load_tasks(str(folder))[0]
    (folder / "relu.py").rename(folder / "relu_dropout.py")
    (folder / "relu_dropout.py").write_text(relu.source.replace(
        "return torch.relu(x)", "return torch.nn.functional.dropout(torch.relu(x), 0.5, training=True)"))
    kernel = NpuTemplates().template_for(relu).render(relu, ELEMENTWISE)
    register_agent(AGENT_NAME, execute)
    config = EvoKernelConfig(target="npu", tasks=str(folder), budget=3, workers=1,
                             memory=str(tmp_path / "memory.sqlite"), qmemory=QMemoryConfig(embedding="hashed-tfidf"))
    run = Run.create(AGENT_NAME, config, tmp_path / "runs")
    report = execute_run(run, AccountedModel(ScriptedModel([f"```python\n{kernel}```"] * 3), run))
    verified = run.events("evokernel.verified")
    assert [e["status"] for e in verified] == ["task_error"]  # one verification, then the task stopped
    assert run.events("evokernel.attempt") == []  # not an attempt: nothing rewarded or learnt
    assert "the task cannot judge kernels" in report.rows[0]["stopped"]
    assert QMemory(config.memory, config.qmemory).store.query("SELECT COUNT(*) FROM q_values") == [(0,)]
