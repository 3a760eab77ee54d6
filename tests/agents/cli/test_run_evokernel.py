from memory.qmemory import EntryKind, MemoryEntry, QMemory, QMemoryConfig, QUpdate


def test_offline_run_on_a_target_without_templates_is_a_one_line_error(agent_cli):
    result = agent_cli("run", "evokernel", "--target", "cpu", "--tasks", "builtin:L1:relu", "--model", "offline")
    assert result.code == 2 and "offline policy needs template kernels" in result.err


def test_unknown_bench_method_is_a_user_error(agent_cli):
    result = agent_cli("bench", "evokernel", "--methods", "evokernel,greedy", "--model", "offline")
    assert result.code == 2 and "unknown method(s) greedy" in result.err


def test_memory_export_import_and_stats(agent_cli, tmp_path):
    source = QMemory(tmp_path / "a.sqlite", QMemoryConfig(embedding="hashed-tfidf"))
    (entry_id,) = source.add([MemoryEntry(kind=EntryKind.EXPERIENCE, text="halve the tile on UB overflow")])
    source.learn("k", [QUpdate("draft", "sig", [entry_id])], 1.0)
    source.close()
    exported = agent_cli("memory", "export", str(tmp_path / "a.sqlite"), str(tmp_path / "a.jsonl"))
    assert exported.code == 0, exported.err
    imported = agent_cli("memory", "import", str(tmp_path / "a.jsonl"), str(tmp_path / "b.sqlite"))
    assert imported.code == 0 and "'entries': 1" in imported.out
    stats = agent_cli("memory", "stats", str(tmp_path / "b.sqlite"))
    assert "'experience': 1" in stats.out and "1 Q-values" in stats.out
    assert agent_cli("memory", "stats", str(tmp_path / "missing.sqlite")).code == 2
