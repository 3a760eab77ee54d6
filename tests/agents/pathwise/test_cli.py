"""`agent run pathwise` and `agent bench ahd` end to end in-process (offline policy, real sandbox)."""

import json

import pytest

from agents.pathwise.offline import NAME as OFFLINE_NAME


def test_run_pathwise_offline_writes_outputs_and_test_rows(pathwise_env, agent_cli):
    result = agent_cli("run", "pathwise", "--problem", "kp_construct", "--budget", "3", "--initial-population",
                       "1", "--model", "offline", "--json-out", "report.json")
    assert result.code == 0, result.err
    report = json.loads((pathwise_env / "report.json").read_text())
    summary = report["summary"]
    assert summary["policy"] == OFFLINE_NAME
    assert summary["best_heuristic"].endswith("best_heuristic.py")
    sizes = {(r["split"], r["size"]) for r in report["rows"] if "size" in r}
    assert {("train", 50), ("test", 100), ("test", 500)} <= sizes
    assert {r["method"] for r in report["rows"]} == {"best (pathwise)", "greedy_ratio"}


def test_bench_ahd_baselines_rows(pathwise_env, agent_cli):
    result = agent_cli("bench", "ahd", "--problem", "kp_construct", "--baselines", "--json-out", "b.json")
    assert result.code == 0, result.err
    rows = json.loads((pathwise_env / "b.json").read_text())["rows"]
    assert [r["size"] for r in rows] == [50, 100, 200, 500]
    assert all(r["method"] == "greedy_ratio" and r["gap_percent"] >= 0 for r in rows)


def test_bench_ahd_needs_baselines_flag_and_a_known_problem(pathwise_env, agent_cli):
    assert agent_cli("bench", "ahd", "--problem", "kp_construct").code == 2
    bad = agent_cli("bench", "ahd", "--problem", "sudoku", "--baselines")
    assert bad.code == 2 and "unknown AHD problem" in bad.err


@pytest.mark.slow  # importing litellm dominates (tens of seconds on a busy machine)
def test_run_pathwise_over_http_with_litellm_counts_tokens(pathwise_env, agent_cli, fake_openai):
    from tests.agents.pathwise.conftest import kp_code

    code = lambda p: f"DESCRIPTION: ratio power {p}\n```python\n{kp_code(p)}```"  # noqa: E731
    policy = '```json\n[{"parents": ["init_0"], "directive": "raise the exponent"}]\n```'
    fake_openai.replies = [code(0.5), policy, code(1.5)]
    result = agent_cli("run", "pathwise", "--problem", "kp_construct", "--budget", "3", "--initial-population", "1",
                       "--actions", "1", "--rollouts", "1", "--inner-steps", "1", "--population", "2", "--no-test",
                       "--model", "openai/gpt-4o-mini", "--api-base", fake_openai.url, "--json-out", "r.json")
    assert result.code == 0, result.err
    summary = json.loads((pathwise_env / "r.json").read_text())["summary"]
    assert summary["calls"] == 3 and summary["prompt_tokens"] > 0 and summary["policy"].startswith("llm")
    assert summary["evaluations"] == 3 and summary["heuristics_in_graph"] == 3
    assert "raise the exponent" in json.dumps(fake_openai.requests[-1])


@pytest.mark.parametrize("flags, said", [(["--methods", "pathwise,funsearch"], "unknown method"),
                                         (["--methods", "eoh", "--seeds", "x"], "--seeds"),
                                         (["--methods", "eoh", "--problem", "sudoku"], "unknown AHD problem")])
def test_bench_ahd_methods_refuses_bad_input_in_one_line(pathwise_env, agent_cli, flags, said):
    result = agent_cli("bench", "ahd", *flags)
    assert result.code == 2 and said in result.err
    assert not (pathwise_env / "runs").exists() or not any((pathwise_env / "runs").iterdir())


def test_bench_ahd_baselines_score_the_same_with_the_local_executor_named(pathwise_env, agent_cli):
    rows = {}
    for name, flags in (("default", []), ("local", ["--executor", "local"])):
        result = agent_cli("bench", "ahd", "--problem", "kp_construct", "--baselines", *flags, "--json-out", f"{name}.json")
        assert result.code == 0, result.err
        rows[name] = [(r["size"], r["method"], r["gap_percent"]) for r in
                      json.loads((pathwise_env / f"{name}.json").read_text())["rows"]]
    assert rows["local"] == rows["default"] and len(rows["local"]) == 4


@pytest.mark.parametrize("command", [["run", "pathwise", "--problem", "kp_construct", "--model", "offline"],
                                     ["bench", "ahd", "--problem", "kp_construct", "--baselines"],
                                     ["bench", "ahd", "--methods", "eoh"]])
def test_an_unknown_executor_is_refused_in_one_line_before_any_run(pathwise_env, agent_cli, command):
    result = agent_cli(*command, "--executor", "slurm")
    assert result.code == 2 and "unknown executor 'slurm'" in result.err
    assert not (pathwise_env / "runs").exists() or not any((pathwise_env / "runs").iterdir())


def test_run_pathwise_on_a_ray_cluster_gets_the_gaps_of_a_local_run(pathwise_env, agent_cli, monkeypatch):
    from tests.fakes.ray_cluster import shared_cluster

    shared_cluster()
    found = {}
    for executor in ("local", "ray"):
        monkeypatch.setenv("AGENT_RUNS_DIR", str(pathwise_env / executor))
        result = agent_cli("run", "pathwise", "--problem", "kp_construct", "--budget", "3", "--initial-population",
                           "1", "--model", "offline", "--executor", executor, "--json-out", f"{executor}.json")
        assert result.code == 0, result.err
        rows = json.loads((pathwise_env / f"{executor}.json").read_text())["rows"]
        found[executor] = sorted((r["split"], r["method"], r.get("size"), r.get("gap_percent"), r.get("failure"))
                                 for r in rows)
        (events,) = (pathwise_env / executor).glob("*/events.jsonl")
        found[f"{executor} jobs on ray"] = sum('"executor.result"' in line for line in events.read_text().splitlines())
    assert found["ray"] == found["local"] and any(row[0] == "test" for row in found["local"])
    assert found["local jobs on ray"] == 0 and found["ray jobs on ray"] > 0
