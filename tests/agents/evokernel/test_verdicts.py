"""Verdicts on disk: the run's write-ahead ledger, and simulated verdicts shared across runs."""

from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.verifier.harness import EvalConfig
from sandboxes.targets.cpu import CpuTarget
from sandboxes.targets.npu.target import NpuTarget

from agents.evokernel.env import KernelEnv
from agents.evokernel.templates import NpuTemplates
from agents.evokernel.verdicts import AttemptLedger, JsonTable, VerdictCache

PARAMS = {"TILE_LENGTH": 2048, "BUFFER_NUM": 2, "BLOCK_DIM": 8}
DECIDED_BY_THE_VERIFICATION = ("status", "feasible", "compiled", "latency_ms", "reference_ms", "bottleneck",
                               "roofline_fraction", "profile", "feedback", "extras")


def test_ledger_answers_only_the_same_attempt_with_the_same_code(tmp_path):
    ledger = AttemptLedger(tmp_path / "ledger.sqlite")
    ledger.save("L1/relu", 3, "code A", {"status": "correct"})
    assert ledger.verdict("L1/relu", 3, "code A") == {"status": "correct"}
    assert ledger.verdict("L1/relu", 3, "code B") is None and ledger.verdict("L1/relu", 4, "code A") is None
    assert ledger.claim("attempt/L1/relu/3") and not ledger.claim("attempt/L1/relu/3")
    ledger.close()
    reopened = AttemptLedger(tmp_path / "ledger.sqlite")  # what a resumed run sees
    assert reopened.verdict("L1/relu", 3, "code A") == {"status": "correct"}
    assert not reopened.claim("attempt/L1/relu/3")


def test_cache_keys_include_the_fingerprint(tmp_path):
    one, other = VerdictCache(tmp_path / "v.sqlite", "chip A"), VerdictCache(tmp_path / "v.sqlite", "chip B")
    one.put("task", "solution", {"status": "correct"})
    assert one.get("task", "solution") == {"status": "correct"} and one.hits == 1
    assert other.get("task", "solution") is None and one.get("task", "another solution") is None
    assert len(JsonTable(tmp_path / "v.sqlite")) == 1


def test_a_shared_simulated_verdict_is_the_one_a_fresh_verification_gives(small_tasks, tmp_path):
    task = next(t for t in load_tasks(str(small_tasks)) if t.name == "relu")
    source = NpuTemplates().template_for(task).render(task, PARAMS)
    shared = tmp_path / "verdicts.sqlite"
    envs = [KernelEnv(NpuTarget(), verdicts=shared), KernelEnv(NpuTarget(), verdicts=shared), KernelEnv(NpuTarget())]
    try:
        first, reused, fresh = (env.verify(task, source) for env in envs)
    finally:
        for env in envs:
            env.close()
    assert first["status"] == "correct" and not first["cached"] and not fresh["cached"]
    assert reused["cached"] and envs[1].verifiers.servers_started == 0  # answered without verifying again
    assert {k: reused[k] for k in DECIDED_BY_THE_VERIFICATION} == {k: first[k] for k in DECIDED_BY_THE_VERIFICATION}
    assert {k: fresh[k] for k in DECIDED_BY_THE_VERIFICATION} == {k: first[k] for k in DECIDED_BY_THE_VERIFICATION}
    # other verifier settings or another chip make another key
    assert len({envs[0].fingerprint(), KernelEnv(NpuTarget(), EvalConfig(trials=6)).fingerprint(),
                KernelEnv(NpuTarget("ascend910a")).fingerprint()}) == 3


def test_real_targets_never_share_verdicts(tmp_path):
    assert KernelEnv(CpuTarget(), verdicts=tmp_path / "v.sqlite", persistent=False).shared is None


def test_a_damaged_cache_is_set_aside_and_a_damaged_ledger_is_one_clear_error(tmp_path, capsys):
    import pytest

    from sandboxes.errors import UserError

    (tmp_path / "cache.sqlite").write_text("not a database")
    cache = VerdictCache(tmp_path / "cache.sqlite", "fingerprint")
    cache.put("task", "code", {"status": "correct"})
    assert cache.get("task", "code") == {"status": "correct"}
    assert (tmp_path / "cache.sqlite.damaged").read_text() == "not a database"
    assert "verdict cache" in capsys.readouterr().err
    (tmp_path / "ledger.sqlite").write_text("not a database")
    with pytest.raises(UserError, match="attempt ledger .* is damaged .*start a new run"):
        AttemptLedger(tmp_path / "ledger.sqlite")
