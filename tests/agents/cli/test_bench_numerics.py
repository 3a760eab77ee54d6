import json

from agents.runtime.run import Run


def test_sae_l0_counts_its_sweep_and_warns_when_it_stops_below_the_true_l0(agent_cli):
    result = agent_cli("bench", "sae-l0", "--k-max", "3", "--k-step", "1", "--steps", "5", "--json")
    assert result.code == 0, result.err
    progress = [line for line in result.err.splitlines() if line.startswith("k=")]
    assert [line.split(":")[0] for line in progress] == ["k=1 (1/3 SAEs)", "k=2 (2/3 SAEs)", "k=3 (3/3 SAEs)"]
    assert "warning: the sweep stops at k=3, below the true L0 11.1" in result.err
    document = json.loads(result.out)
    assert "raise --k-max above 11" in document["summary"]["warning"] and len(document["rows"]) == 3
    run = Run.open(document["run"]["id"])
    assert run.status == "finished" and (run.artifacts / "sae_l0_sweep.png").is_file()


def test_an_unknown_sigs_case_is_one_line_and_no_run(agent_cli):
    result = agent_cli("bench", "sigs", "--cases", "heat,wav")
    assert result.code == 2 and "no SIGS case wav (choose from heat, wave" in result.err
