import numpy as np
import pytest

from agents.evokernel.offline import OfflinePolicy, neighbours, params_key, remembered_moves, remembered_params
from agents.evokernel.templates import NpuTemplates, template_library
from benchmarks.kernels.tasks import load_tasks


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
