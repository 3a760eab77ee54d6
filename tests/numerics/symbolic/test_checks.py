from numerics.symbolic.checks import run_checks


def test_checks_report_rows_for_selected_cases():
    summary, rows = run_checks(["advection"])
    assert summary == {"closed_form_cases": 1, "recovered": 1, "no_closed_form_residuals": {}}
    assert rows[0]["case"] == "advection" and rows[0]["exact"] is True
