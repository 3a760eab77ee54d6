from sandboxes.selftest import run_selftest


def test_selftest_report_shape():
    summary, rows = run_selftest("local", cases=["network", "write_outside"])
    assert [row["case"] for row in rows] == ["write_outside", "network"]
    assert all(set(row) >= {"case", "contained", "detail"} for row in rows)
    assert summary["backend"] == "local"
    assert summary["all_contained"] is True
    assert "isolation=" in summary["protections"]
