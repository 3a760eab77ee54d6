import pytest

from memory.qmemory import EntryKind, MemoryEntry, QMemory, QMemoryConfig, QUpdate
from memory.qmemory.transfer import export_memory, import_memory
from sandboxes.errors import UserError


def test_export_then_import_carries_entries_q_values_and_links(tmp_path):
    source = QMemory(tmp_path / "a.sqlite", QMemoryConfig(embedding="hashed-tfidf"))
    (parent,) = source.add([MemoryEntry(kind=EntryKind.TRACE, text="draft relu")])
    (child,) = source.add([MemoryEntry(kind=EntryKind.TRACE, text="refined relu", parent_id=parent)])
    source.learn("k", [QUpdate("refine", "sig", [child])], 1.0, popart="npu")
    counts = export_memory(source, tmp_path / "mem.jsonl")
    assert counts == {"entries": 2, "q_values": 1, "popart": 1}

    target = QMemory(tmp_path / "b.sqlite", QMemoryConfig(embedding="hashed-tfidf-64"))
    target.add([MemoryEntry(kind=EntryKind.EXPERIENCE, text="already here")])
    import_memory(target, tmp_path / "mem.jsonl")
    (new_child,) = target.store.find("text = ?", ("refined relu",))
    (new_parent,) = target.store.find("text = ?", ("draft relu",))
    assert new_child.parent_id == new_parent.id and new_child.id != child
    assert target.q("refine", "sig", [new_child.id])[new_child.id] == pytest.approx(source.q("refine", "sig", [child])[child])
    assert target.retrieve("refined relu", "refine", "sig", [EntryKind.TRACE], n=1)[0].entry.id == new_child.id

    import_memory(target, tmp_path / "mem.jsonl")  # importing twice adds nothing
    assert target.store.count() == 3


def test_import_of_a_wrong_file_is_a_user_error(tmp_path):
    memory = QMemory(tmp_path / "m.sqlite", QMemoryConfig(embedding="hashed-tfidf"))
    (tmp_path / "x.jsonl").write_text('{"hello": 1}\n')
    with pytest.raises(UserError, match="not an agentkiln memory export"):
        import_memory(memory, tmp_path / "x.jsonl")
    with pytest.raises(UserError, match="does not exist"):
        import_memory(memory, tmp_path / "missing.jsonl")
