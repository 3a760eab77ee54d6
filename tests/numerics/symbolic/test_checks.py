from numerics.symbolic.checks import run_checks


def test_checks_report_rows_for_selected_cases():
    summary, rows = run_checks(["advection"])
    assert summary == {"closed_form_cases": 1, "recovered": 1, "no_closed_form_residuals": {}}
    assert rows[0]["case"] == "advection" and rows[0]["exact"] is True


def test_an_unknown_case_name_is_a_user_error():
    import pytest

    from numerics.symbolic.checks import case_names
    from sandboxes.errors import UserError

    with pytest.raises(UserError, match="no SIGS case wav"):
        case_names(["heat", "wav"])
