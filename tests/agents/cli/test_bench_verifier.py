"""`agent bench verifier`: bad selections are one-line errors (the measurement itself: test_cost)."""


def test_an_empty_selection_or_unknown_target_is_a_one_line_error(isolated_agent_env, agent_cli, tmp_path):
    result = agent_cli("bench", "verifier", "--tasks", "builtin:L1:relu", "--solutions", str(tmp_path))
    assert result.code == 2 and "no solution in" in result.err
    result = agent_cli("bench", "verifier", "--target", "tpu")
    assert result.code == 2 and "unknown target 'tpu'" in result.err


def test_the_command_is_listed(agent_cli):
    result = agent_cli("bench", "--help")
    assert result.code == 0 and "verifier" in result.out
