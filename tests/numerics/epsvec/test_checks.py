from numerics.epsvec.checks import CheckConfig, run_check
from numerics.epsvec.pipeline import SetupConfig


def test_fidelity_rises_with_epsilon_and_only_the_per_sample_baseline_decays_on_seed_zero():
    """60 private sessions, 2 noise draws. The same four verdicts hold on seeds 1 and 2 at these sizes."""
    config = CheckConfig(setup=SetupConfig(examples=60, public=60, held_out=60), epsilons=(0.1, 10.0), draws=2,
                         samples=40, counts=(8, 64))
    summary, rows = run_check(config)
    sweep = summary["epsilon_sweep"]
    assert sweep["no vector"]["private_share"] < sweep["0.1"]["private_share"] + 0.05 < sweep["10"]["private_share"]
    assert sweep["10"]["bigram_js"] < sweep["no vector"]["bigram_js"] - 0.2
    small, large = summary["count_sweep"]
    assert small["epsvec_epsilon"] == large["epsvec_epsilon"] == 1.0 and large["fresh_at_epsvec_noise_epsilon"] > 5
    assert large["baseline"]["private_share"] < small["baseline"]["private_share"] < small["epsvec"]["private_share"]
    assert [row["passed"] for row in rows] == [True, True, True, True] and summary["passed"] == 4
