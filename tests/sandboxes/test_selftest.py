from sandboxes.selftest import run_selftest


def test_selftest_report_shape():
    report = run_selftest("local", cases=["network", "write_outside"])
    assert [row["case"] for row in report.rows] == ["write_outside", "network"]
    assert all(set(row) >= {"case", "contained", "detail"} for row in report.rows)
    assert report.summary["backend"] == "local"
    assert report.summary["all_contained"] is True
    assert "isolation=" in report.summary["protections"]
