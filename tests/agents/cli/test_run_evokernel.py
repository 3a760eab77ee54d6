def test_offline_run_on_a_target_without_templates_is_a_one_line_error(agent_cli):
    result = agent_cli("run", "evokernel", "--target", "cpu", "--tasks", "builtin:L1:relu", "--model", "offline")
    assert result.code == 2 and "offline policy needs template kernels" in result.err
