import pytest

from sandboxes.errors import UserError
from tools.hostpaths import HostPaths
from tools.numerics.compression import make_compression_tools, parse_steps
from tools.registry import tools_of_module
from tests.numerics.fixture.conftest import single_thread  # noqa: F401  (autouse)


@pytest.fixture
def TOOLS(tmp_path):
    return {tool.name: tool for tool in make_compression_tools(HostPaths(tmp_path))}


def test_every_operation_is_a_numerics_tool_with_a_schema(TOOLS):
    import tools.numerics.compression as module

    assert {t.name for t in tools_of_module(module)} == set(TOOLS) == {
        "compression_prune", "compression_store_sparse", "compression_lowrank", "compression_quantise",
        "compression_perplexity", "compression_layer_error"}
    assert all(t.group == "numerics" for t in TOOLS.values())
    assert TOOLS["compression_prune"].needs_approval and not TOOLS["compression_perplexity"].needs_approval
    assert "sparsity" in TOOLS["compression_prune"].openai_schema()["function"]["parameters"]["properties"]


def test_chain_prune_store_lowrank_quantise_and_measure(tmp_path, TOOLS):
    pruned, reduced, quantised = (str(tmp_path / name) for name in ("p.pt", "l.pt", "q.pt"))
    result = TOOLS["compression_prune"].invoke({"sparsity": 0.5, "windows": 10, "out_file": pruned})
    assert result["perplexity"] > result["perplexity_before"] and result["saved_to"] == pruned
    storage = TOOLS["compression_store_sparse"].invoke({"model_file": pruned})
    assert all(layer["round_trip_exact"] for layer in storage["layers"])
    assert storage["reduction"] == pytest.approx(1.57, abs=0.05)
    lowrank = TOOLS["compression_lowrank"].invoke(
        {"model_file": pruned, "ratio": 0.5, "windows": 10, "out_file": reduced})
    assert lowrank["linear_params"] == 393216 // 2
    quant = TOOLS["compression_quantise"].invoke(
        {"model_file": reduced, "method": "rtn", "windows": 10, "out_file": quantised})
    assert quant["linear_bytes"] < lowrank["linear_bytes"] / 3
    errors = TOOLS["compression_layer_error"].invoke(json_args(model_file=quantised))["block_errors"]
    assert len(errors) == 2 and all(0 < e < 1 for e in errors)
    assert TOOLS["compression_perplexity"].invoke({"model_file": quantised, "windows": 10})["perplexity"] > 1


def json_args(**kwargs) -> str:
    import json

    return json.dumps(kwargs)


def test_bad_inputs_are_user_errors(tmp_path, TOOLS):
    with pytest.raises(UserError, match="no model file"):
        TOOLS["compression_perplexity"].invoke({"model_file": str(tmp_path / "none.pt")})
    (tmp_path / "junk.pt").write_text("not a model")
    with pytest.raises(UserError, match="not a TinyLM model file"):
        TOOLS["compression_perplexity"].invoke({"model_file": str(tmp_path / "junk.pt")})
    with pytest.raises(UserError, match="bad arguments"):
        TOOLS["compression_prune"].invoke({"sparsity": 1.5})
    with pytest.raises(UserError, match="bad step 'squash:2'"):
        parse_steps("prune:0.5,squash:2")
    with pytest.raises(UserError, match="not a number"):
        parse_steps("quant:four")
    assert [s.label for s in parse_steps("prune:0.5:magnitude, lowrank:0.8")] == ["prune:0.5:magnitude",
                                                                                  "lowrank:0.8:a3"]


def test_files_outside_the_work_directory_are_neither_probed_nor_written(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "model.pt").write_text("exists")
    tools = {tool.name: tool for tool in make_compression_tools(HostPaths(work))}
    messages = set()
    for outside in (tmp_path / "model.pt", tmp_path / "missing.pt"):
        with pytest.raises(UserError, match="may only read files under") as refused:
            tools["compression_perplexity"].invoke({"model_file": str(outside)})
        messages.add(str(refused.value).removeprefix(str(outside)))
    assert len(messages) == 1  # whether the file exists is not revealed
    with pytest.raises(UserError, match="may only write files inside"):
        tools["compression_prune"].invoke({"sparsity": 0.5, "windows": 1, "out_file": str(tmp_path / "p.pt")})
    assert not (tmp_path / "p.pt").exists()
    with pytest.raises(UserError, match="may only read files under"):
        make_compression_tools()[0].invoke({"model_file": str(tmp_path / "model.pt")})  # no work directory at all
