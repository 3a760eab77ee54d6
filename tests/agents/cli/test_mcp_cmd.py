import pytest

pytest.importorskip("mcp", reason='needs the MCP SDK: pip install -e ".[ui]"')


def test_bad_mcp_settings_are_one_line_errors(agent_cli, tmp_path):
    unknown = agent_cli("mcp", "--tools", "kernels", "--allow", "kernal_check")
    assert unknown.code == 2 and "no tool or tool group named kernal_check" in unknown.err
    assert len(unknown.err.strip().splitlines()) == 1
    transport = agent_cli("mcp", "--transport", "ftp")
    assert transport.code == 2 and "transport" in transport.err
    missing = agent_cli("mcp", "--tools", "kernels", "--workdir", str(tmp_path / "nowhere"))
    assert missing.code == 2 and "not a directory" in missing.err


def test_a_port_in_use_is_one_line(agent_cli):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        result = agent_cli("mcp", "--tools", "kernels", "--transport", "http", "--port", str(busy.getsockname()[1]))
    assert result.code == 2 and "cannot listen on 127.0.0.1" in result.err
