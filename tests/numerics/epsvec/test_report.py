from numerics.epsvec.report import accounting_row, count_rows, epsilon_row


def _cell(share):
    return {"private_share": share, "bigram_js": 0.5}


def test_the_epsilon_row_passes_only_when_fidelity_rises():
    rising = {"no vector": _cell(0.0), "0.1": _cell(0.1), "1": _cell(0.5), "inf": _cell(0.6)}
    assert epsilon_row(rising, (0.1, 1.0), pooled=600)["passed"]
    falling = {**rising, "1": _cell(0.05)}
    assert not epsilon_row(falling, (0.1, 1.0), pooled=600)["passed"]
    noisy = {**rising, "inf": _cell(0.46)}  # within 2 standard errors of 0.5 at 600 samples, not at 6000
    assert epsilon_row(noisy, (0.1, 1.0), pooled=600)["passed"]
    assert not epsilon_row(noisy, (0.1, 1.0), pooled=6000)["passed"]
    assert "eps 1: 0.500 (JS 0.500)" in epsilon_row(rising, (0.1, 1.0), 600)["measured"]


def _count(samples, ours, theirs):
    return {"samples": samples, "draws": 3, "epsvec_epsilon": 1.0, "epsvec": _cell(ours),
            "baseline_sigma": 10.0 * samples,
            "baseline": _cell(theirs), "fresh_at_epsvec_noise_epsilon": 2.0}


def test_count_rows_need_a_falling_baseline_below_epsvec():
    good = count_rows([_count(10, 0.7, 0.4), _count(100, 0.75, 0.2)], 1.0)
    assert [row["passed"] for row in good] == [True, True]
    flat = count_rows([_count(10, 0.7, 0.4), _count(100, 0.4, 0.5)], 1.0)
    assert [row["passed"] for row in flat] == [False, False]


def test_the_accounting_row_fails_when_delta_is_missed():
    cell = {"analytic": 3.0, "classical": None, "achieved_delta": 1e-5}
    assert accounting_row({"1": cell}, 1e-5, 4.0)["passed"]
    assert not accounting_row({"1": {**cell, "achieved_delta": 2e-5}}, 1e-5, 4.0)["passed"]
    assert not accounting_row({"0.5": {**cell, "classical": 2.0}}, 1e-5, 4.0)["passed"]
