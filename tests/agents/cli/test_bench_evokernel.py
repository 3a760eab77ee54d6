def test_unknown_bench_method_is_a_user_error(agent_cli):
    result = agent_cli("bench", "evokernel", "--methods", "evokernel,greedy", "--model", "offline")
    assert result.code == 2 and "unknown method(s) greedy" in result.err
