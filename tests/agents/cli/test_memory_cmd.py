import json

from memory.qmemory import EntryKind, MemoryEntry, QMemory, QMemoryConfig, QUpdate


def one_entry_memory(path):
    memory = QMemory(path, QMemoryConfig(embedding="hashed-tfidf"))
    (entry_id,) = memory.add([MemoryEntry(kind=EntryKind.EXPERIENCE, text="halve the tile on UB overflow")])
    memory.learn("k", [QUpdate("draft", "sig", [entry_id])], 1.0)
    memory.close()
    return path


def test_export_import_and_stats_take_the_memory_first(agent_cli, tmp_path):
    one_entry_memory(tmp_path / "a.sqlite")
    exported = agent_cli("memory", "export", str(tmp_path / "a.sqlite"), str(tmp_path / "new" / "a.jsonl"))
    assert exported.code == 0, exported.err  # a missing folder is made, as import and --json-out do
    into_folder = agent_cli("memory", "export", str(tmp_path / "a.sqlite"), str(tmp_path / "new"))
    assert into_folder.code == 2 and "is a folder" in into_folder.err
    imported = agent_cli("memory", "import", str(tmp_path / "b.sqlite"), str(tmp_path / "new" / "a.jsonl"))
    assert imported.code == 0 and "'entries': 1" in imported.out
    stats = agent_cli("memory", "stats", str(tmp_path / "b.sqlite"))
    assert "'experience': 1" in stats.out and "1 Q-values" in stats.out
    document = json.loads(agent_cli("memory", "stats", str(tmp_path / "b.sqlite"), "--json").out)
    assert document["entries"]["experience"] == 1 and document["q_values"] == 1


def test_a_missing_memory_or_export_is_one_line(agent_cli, tmp_path):
    missing = agent_cli("memory", "stats", str(tmp_path / "missing.sqlite"))
    assert missing.code == 2 and "memory file" in missing.err and "does not exist" in missing.err
    swapped = agent_cli("memory", "import", str(tmp_path / "a.jsonl"), str(tmp_path / "b.sqlite"))
    assert swapped.code == 2 and "usage: agent memory import MEMORY SOURCE" in swapped.err
    assert not (tmp_path / "a.jsonl").exists(), "nothing is created for a refused import"
