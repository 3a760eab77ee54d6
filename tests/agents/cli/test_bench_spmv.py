import json


def test_bench_spmv_prints_ratios_side_by_side(isolated_agent_env, agent_cli):
    result = agent_cli("bench", "spmv", "--rows", "128", "--cols", "256", "--repeats", "2", "--no-kernel",
                       "--json-out", "s.json")
    assert result.code == 0, result.err
    rows = json.loads((isolated_agent_env / "s.json").read_text())["rows"]
    assert [row["sparsity"] for row in rows] == [0.5, 0.9]
    assert all(row["numpy_vs_dense_fp16"] > 0 for row in rows)
    assert all(row["gpu"] == "not run: no GPU" or "gpu_torch_vs_dense_fp16" in row for row in rows)
