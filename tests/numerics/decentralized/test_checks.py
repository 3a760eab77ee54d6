from numerics.decentralized.checks import run_checks


def test_all_three_paper_checks_pass(tmp_path):
    summary, rows = run_checks(tmp_path, quick=True)
    failed = [row for row in rows if not row["passed"]]
    assert not failed, failed
    assert summary["passed"] == summary["checks"] == 5
    assert (tmp_path / "bred_gap_sweep.png").exists()
