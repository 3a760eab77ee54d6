import sys
import types
from contextlib import closing

import numpy as np
import pytest
import torch

from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.context import Deps, build_context, signature
from agents.evokernel.learn import attempt_record, learn
from agents.evokernel.offline import OfflinePolicy, neighbours, params_key, remembered_moves, remembered_params
from agents.evokernel.state import DRAFT, REFINE, apply_attempt, new_task_state
from agents.evokernel.templates import NpuTemplates, template_library
from benchmarks.kernels.tasks import load_tasks
from memory.qmemory import EntryKind, QMemory, QMemoryConfig
from sandboxes.targets.npu.launch import capture
from tests.agents.evokernel.conftest import TASK


@pytest.fixture(scope="module")
def policy():
    return OfflinePolicy(NpuTemplates())


@pytest.fixture(scope="module")
def relu():
    return load_tasks("builtin:L1:relu")[0]


def test_templates_cover_single_operators_and_fused_chains_only(policy, relu):
    conv, mse = load_tasks("builtin:L1:conv2d+builtin:L1:mse_loss")
    attention = load_tasks("builtin:L2:attention")[0]
    assert policy.templates.template_for(relu).name == "elementwise"
    assert policy.templates.template_for(conv).name == "conv2d"
    assert policy.templates.template_for(mse).name == "full_reduce"
    assert policy.templates.template_for(attention) is None
    assert policy.draft(attention, [], []) is None
    assert template_library("cpu") is None


def test_draft_uses_defaults_then_smaller_neighbours(policy, relu):
    template = policy.templates.template_for(relu)
    first = policy.draft(relu, [], [])
    assert first["params"] == template.defaults and "class ModelNew" in first["code"]
    second = policy.draft(relu, [first["params_key"]], [])
    changed = [k for k in template.defaults if second["params"][k] != template.defaults[k]]
    assert len(changed) == 1 and second["params"][changed[0]] < template.defaults[changed[0]]


def test_draft_prefers_parameters_of_a_retrieved_feasible_trace(policy, relu):
    hint = {"template": "elementwise", "feasible": True, "params": {"TILE_LENGTH": 1024, "BUFFER_NUM": 1,
                                                                     "BLOCK_DIM": 8}}
    assert policy.draft(relu, [], [hint])["params"] == hint["params"]
    assert policy.draft(relu, [], [{**hint, "feasible": False}])["params"] != hint["params"]


def test_refine_tries_retrieved_practice_mutations_first_and_never_repeats(policy, relu):
    start = {"TILE_LENGTH": 2048, "BUFFER_NUM": 1, "BLOCK_DIM": 8}
    hints = [{"mutation": {"param": "BUFFER_NUM", "direction": "up", "to": 2}}]
    first = policy.refine(relu, start, [], hints, np.random.default_rng(0))
    assert first["mutation"]["param"] == "BUFFER_NUM" and first["params"]["BUFFER_NUM"] == 2
    template = policy.templates.template_for(relu)
    tried = [params_key("elementwise", {**start, m["param"]: m["to"]}) for m in neighbours(template, start)]
    assert len(tried) == 5  # tile up/down, buffers up, cores up/down
    assert policy.refine(relu, start, tried, hints, np.random.default_rng(0)) is None
    assert policy.exhausted(relu, start, tried) and not policy.exhausted(relu, start, tried[:-1])


def test_sample_is_a_seeded_random_instance(policy, relu):
    a = policy.sample(relu, [], np.random.default_rng(3))
    b = policy.sample(relu, [], np.random.default_rng(3))
    assert a["params"] == b["params"]


def test_draft_takes_the_fastest_remembered_kernel_of_its_template_first(policy, relu):
    plain = {"template": "elementwise", "feasible": True, "params": {"TILE_LENGTH": 1024, "BUFFER_NUM": 1,
                                                                      "BLOCK_DIM": 8}}
    fastest = {"template": "elementwise", "feasible": True, "new_best": True,
               "params": {"TILE_LENGTH": 8192, "BUFFER_NUM": 2, "BLOCK_DIM": 40}}
    other_template = {**fastest, "template": "softmax", "params": {"TILE_LENGTH": 2048, "BUFFER_NUM": 2,
                                                                    "BLOCK_DIM": 8}}
    assert remembered_params([other_template, plain, fastest], "elementwise") == [fastest["params"], plain["params"]]
    assert policy.draft(relu, [], [plain, fastest])["params"] == fastest["params"]
    tried = [params_key("elementwise", fastest["params"])]
    assert policy.draft(relu, tried, [plain, fastest])["params"] == plain["params"]


def test_refine_puts_remembered_gains_first_and_remembered_losses_last(policy, relu):
    start = {"TILE_LENGTH": 2048, "BUFFER_NUM": 1, "BLOCK_DIM": 8}
    gain = {"mutation": {"param": "BLOCK_DIM", "direction": "up", "to": 16}, "gain": 1.3}
    improved_trace = {"mutation": {"param": "TILE_LENGTH", "direction": "down", "to": 1024}, "improved": True}
    loss = {"mutation": {"param": "BUFFER_NUM", "direction": "up", "to": 2}, "improved": False}
    helped, hurt = remembered_moves([loss, gain, improved_trace])
    assert helped == [("BLOCK_DIM", "up"), ("TILE_LENGTH", "down")] and hurt == {("BUFFER_NUM", "up")}
    order, tried = [], []
    for _ in range(5):
        proposal = policy.refine(relu, start, tried, [loss, gain, improved_trace], np.random.default_rng(0))
        order.append((proposal["mutation"]["param"], proposal["mutation"]["direction"]))
        tried.append(proposal["params_key"])
    assert order[:2] == helped and order[-1] == ("BUFFER_NUM", "up")


def test_refine_first_adopts_the_parameters_of_a_remembered_faster_kernel(policy, relu):
    start = {"TILE_LENGTH": 2048, "BUFFER_NUM": 1, "BLOCK_DIM": 8}
    faster = {"template": "elementwise", "feasible": True, "new_best": True,
              "params": {"TILE_LENGTH": 4096, "BUFFER_NUM": 2, "BLOCK_DIM": 40}}
    slower = {**faster, "new_best": False, "params": {"TILE_LENGTH": 1024, "BUFFER_NUM": 2, "BLOCK_DIM": 16}}
    proposal = policy.refine(relu, start, [], [slower, faster], np.random.default_rng(0))
    assert proposal["params"] == faster["params"] and proposal["mutation"]["direction"] == "adopt"
    again = policy.refine(relu, start, [proposal["params_key"]], [slower, faster], np.random.default_rng(0))
    assert again["mutation"]["direction"] in ("up", "down")  # only remembered gains are adopted


def simulated_ms(task, proposal) -> float:
    """The proposal's solution run on the simulated NPU in this process: its launches' simulated time."""
    module = types.ModuleType("solution")
    sys.modules["solution"] = module
    exec(compile(proposal["code"], "solution.py", "exec"), module.__dict__)
    namespace: dict = {}
    exec(compile(task.source, "task.py", "exec"), namespace)
    torch.manual_seed(0)
    with capture() as launches:
        module.ModelNew(*namespace["get_init_inputs"]()).forward(*namespace["get_inputs"]())
    return sum(launch.cycles / launch.clock_mhz for launch in launches) / 1e3


def learned(kernel, task, deps, proposal, stage, start=None):
    """One attempt of ``proposal`` through the real learn step into a SQLite memory, as the graph runs it."""
    verdict = {"status": "correct", "feasible": True, "compiled": True, "latency_ms": simulated_ms(kernel, proposal),
               "reference_ms": 1.0, "bottleneck": "vector", "roofline_fraction": 0.5, "profile": "",
               "feedback": "ok", "extras": {}}
    candidate = {**proposal, "attempt": task["attempts"] + 1, "stage": stage, "code_path": "unused.py",
                 "start_point": start and start["attempt"], "start_memory_id": start and start["memory_id"]}
    context = {"signature": signature(deps.config, task), "q_ids": []}
    record = learn(kernel, task, context, attempt_record(task, candidate, verdict), deps, "run", proposal["code"], None)
    return apply_attempt(task, record, deps.config.budget), record


@pytest.fixture
def two_tasks(tmp_path):
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "softmax.py").write_text(TASK.format(doc="Softmax over the last dimension.",
                                                   expr="torch.softmax(x, dim=1)"))
    (folder / "l2_normalize.py").write_text(TASK.format(doc="Row-wise L2 normalisation.",
                                                        expr="x / torch.norm(x, p=2, dim=1, keepdim=True)"))
    return load_tasks(str(folder))


def first_refinement(policy, kernel, deps, rng_seed=0):
    """Draft ``kernel`` (learned into memory), then the offline policy's first refinement from what it retrieves."""
    task, _ = learned(kernel, new_task_state(kernel, "evokernel"), deps, policy.draft(kernel, [], []), DRAFT)
    task = {**task, "stage": REFINE}
    context = build_context(kernel, task, deps, np.random.default_rng(rng_seed))
    return policy.refine(kernel, context["start"]["params"], task["tried"], context["hints"],
                         np.random.default_rng(rng_seed)), context


def move_of(policy, kernel, task, param):
    """The offline policy's refinement of the task's draft that moves ``param`` (the others skipped unmeasured)."""
    tried = list(task["tried"])
    while (proposal := policy.refine(kernel, task["start_points"][0]["params"], tried, [],
                                     np.random.default_rng(0)))["mutation"]["param"] != param:
        tried.append(proposal["params_key"])
    return proposal


def move_order(policy, kernel, task, hints, seed=0):
    """Every refinement of the task's draft in the order the offline policy proposes them."""
    start, tried, order = task["start_points"][0]["params"], list(task["tried"]), []
    while (proposal := policy.refine(kernel, start, tried, hints, np.random.default_rng(seed))) is not None:
        order.append((proposal["mutation"]["param"], proposal["mutation"]["direction"]))
        tried.append(proposal["params_key"])
    return order


def test_a_prefetch_gain_is_recorded_in_memory_and_proposed_first_for_another_family(policy, two_tasks, tmp_path):
    softmax, norm = sorted(two_tasks, key=lambda t: t.name != "softmax")
    assert (policy.templates.template_for(softmax).name, policy.templates.template_for(norm).name) == ("softmax", "norm")
    config = EvoKernelConfig(method="evokernel", budget=8, start_point_epsilon=0.0)
    with closing(QMemory(tmp_path / "empty.sqlite", QMemoryConfig(embedding="hashed-tfidf"))) as empty:
        without, _ = first_refinement(policy, norm, Deps(config, empty, policy))
    assert without["mutation"]["param"] != "PREFETCH"  # this seed's first move with nothing remembered
    with closing(QMemory(tmp_path / "m.sqlite", QMemoryConfig(embedding="hashed-tfidf"))) as memory:
        deps = Deps(config, memory, policy)
        task, draft = learned(softmax, new_task_state(softmax, "evokernel"), deps, policy.draft(softmax, [], []), DRAFT)
        proposal = move_of(policy, softmax, task, "PREFETCH")
        _, child = learned(softmax, {**task, "stage": REFINE}, deps, proposal, REFINE, task["start_points"][0])
        assert child["latency_ms"] < draft["latency_ms"]  # the simulator models the earlier copy-in
        practice = memory.store.find("kind = ?", (EntryKind.PRACTICE.value,), limit=5)
        assert [p.meta["mutation"]["param"] for p in practice] == ["PREFETCH"]
        with_memory, context = first_refinement(policy, norm, deps)
        assert any((h.get("mutation") or {}).get("param") == "PREFETCH" for h in context["hints"])
        assert (with_memory["mutation"]["param"], with_memory["mutation"]["direction"]) == ("PREFETCH", "up")
        assert simulated_ms(norm, with_memory) < simulated_ms(norm, policy.draft(norm, [], []))


@pytest.fixture
def two_chains(tmp_path):
    folder = tmp_path / "chains"
    folder.mkdir()
    (folder / "scale_tanh.py").write_text(TASK.format(doc="tanh(2x - 1).", expr="torch.tanh(x * 2.0 - 1.0)"))
    (folder / "relu_sigmoid.py").write_text(TASK.format(doc="sigmoid(relu(x)).", expr="torch.sigmoid(torch.relu(x))"))
    return sorted(load_tasks(str(folder)), key=lambda t: t.name != "scale_tanh")


def test_unfusing_a_chain_is_recorded_as_a_loss_and_tried_last_on_the_next_chain(policy, two_chains, tmp_path):
    first, second = two_chains
    config = EvoKernelConfig(method="evokernel", budget=8, start_point_epsilon=0.0)
    with closing(QMemory(tmp_path / "empty.sqlite", QMemoryConfig(embedding="hashed-tfidf"))) as empty:
        task, _ = learned(second, new_task_state(second, "evokernel"), Deps(config, empty, policy),
                          policy.draft(second, [], []), DRAFT)
        before = move_order(policy, second, task, [])
    assert before[-1] != ("FUSE", "down")  # with nothing remembered, this seed tries it earlier
    with closing(QMemory(tmp_path / "m.sqlite", QMemoryConfig(embedding="hashed-tfidf"))) as memory:
        deps = Deps(config, memory, policy)
        task, draft = learned(first, new_task_state(first, "evokernel"), deps, policy.draft(first, [], []), DRAFT)
        unfused = move_of(policy, first, task, "FUSE")
        assert unfused["params"]["FUSE"] == 0
        _, child = learned(first, {**task, "stage": REFINE}, deps, unfused, REFINE, task["start_points"][0])
        assert child["latency_ms"] > 1.3 * draft["latency_ms"]  # two launches and a GM round trip
        trace = memory.store.find("id = ?", (child["memory_id"],), limit=1)[0]
        assert trace.meta["mutation"]["param"] == "FUSE" and trace.meta["improved"] is False
        task, _ = learned(second, new_task_state(second, "evokernel"), deps, policy.draft(second, [], []), DRAFT)
        context = build_context(second, {**task, "stage": REFINE}, deps, np.random.default_rng(0))
        after = move_order(policy, second, task, context["hints"])
        assert sorted(after) == sorted(before) and after[-1] == ("FUSE", "down")
