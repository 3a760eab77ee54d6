import sys

from agents.runtime.doctor import (klayout_python_check, models_section, provider_credentials, run_command,
                                   selftest_section)


def test_run_command_reports_missing_failing_and_working_tools():
    assert run_command(["no-such-tool-xyz"]) == {"ok": False, "detail": "no-such-tool-xyz not found on PATH"}
    failing = run_command([sys.executable, "-c", "import sys; print('bad'); sys.exit(3)"])
    assert failing["ok"] is False and "exited 3: bad" in failing["detail"]
    assert run_command([sys.executable, "-c", "print('hello')"]) == {"ok": True, "detail": "hello"}
    slow = run_command([sys.executable, "-c", "import time; time.sleep(5)"], timeout_s=0.5)
    assert slow["ok"] is False and "did not finish" in slow["detail"]


def test_credentials_are_named_never_shown(monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", "very-secret")
    found = provider_credentials()
    assert found["gemini"] == {"ok": True, "detail": "GOOGLE_API_KEY is set"}
    assert "very-secret" not in repr(found) and found["openai"]["ok"] is False


def test_models_section_names_the_offline_default_and_config_file(tmp_path):
    section = models_section()
    assert section["default_model"]["ok"] is False and section["default_model"]["source"] == "none"
    (tmp_path / "agentkiln.toml").write_text('[run]\nmodel = "ollama/llama3"\n')
    section = models_section()
    assert section["default_model"]["detail"] == "ollama/llama3" and section["config_file"] == "agentkiln.toml"


def test_selftest_can_be_skipped_and_klayout_api_is_probed_for_real():
    assert selftest_section(False)["skipped"] is True
    check = klayout_python_check()
    assert isinstance(check["ok"], bool) and "klayout" in check["detail"]


def test_local_guarantees_are_what_the_local_sandbox_keeps():
    from agents.runtime.doctor import local_guarantees_check
    from sandboxes.guarantees import SAFETY, lacking
    from sandboxes.isolation import probe
    from sandboxes.local import LocalSandbox

    check = local_guarantees_check()
    sandbox = LocalSandbox()
    assert check["guarantees"] == sandbox.guarantees
    sandbox.close()
    missing = lacking(probe())
    assert check["ok"] is not any(name in missing for name in SAFETY)
    assert all(why in check["detail"] for why in missing.values())
