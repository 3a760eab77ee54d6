import json

from agents.runtime.run import Run


def test_epsvec_prints_its_four_checks_in_a_run_directory(agent_cli):
    result = agent_cli("bench", "epsvec", "--epsilons", "0.1,10", "--draws", "1", "--samples", "12",
                       "--counts", "4,8", "--examples", "20", "--json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    rows = document["rows"]
    assert [row["check"] for row in rows] == ["fidelity to the private data rises with epsilon",
                                              "privacy cost does not grow with the number of samples",
                                              "a per-sample DP baseline loses fidelity as the samples grow",
                                              "(epsilon, delta) accounting of the Gaussian mechanism"]
    assert rows[3]["passed"] and "analytic Gaussian mechanism" in rows[3]["paper"]
    assert Run.open(document["run"]["id"]).status == "finished"


def test_a_bad_list_of_epsilons_is_one_line_and_exit_two(agent_cli):
    result = agent_cli("bench", "epsvec", "--epsilons", "1,0.1")
    assert result.code == 2 and "--epsilons: expected increasing positive numbers" in result.err
