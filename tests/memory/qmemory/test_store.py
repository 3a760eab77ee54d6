import multiprocessing

import numpy as np
import pytest

from memory.qmemory import qtable
from memory.qmemory.entries import EntryKind, MemoryEntry
from memory.qmemory.store import MemoryStore


def test_store_uses_wal_and_a_busy_timeout(tmp_path):
    store = MemoryStore(tmp_path / "s.sqlite", busy_timeout_ms=1234)
    assert store.query("PRAGMA journal_mode")[0][0] == "wal"
    assert store.query("PRAGMA busy_timeout")[0][0] == 1234


def test_entries_round_trip_with_meta_and_vectors(tmp_path):
    store = MemoryStore(tmp_path / "s.sqlite")
    entry = MemoryEntry(kind=EntryKind.TRACE, text="code", task="relu", meta={"latency_us": 3.5}, bottleneck="MTE2")
    (entry_id,) = store.add_entries([entry], np.ones((1, 4), dtype=np.float32))
    (back,) = store.get([entry_id])
    assert back.meta == {"latency_us": 3.5} and back.kind is EntryKind.TRACE and back.bottleneck == "MTE2"
    ids, kinds, blobs = store.vectors_since(0)
    assert ids.tolist() == [entry_id] and np.frombuffer(blobs[0], dtype=np.float32).tolist() == [1.0] * 4


def test_a_source_key_is_stored_once(tmp_path):
    store = MemoryStore(tmp_path / "s.sqlite")
    a = MemoryEntry(kind=EntryKind.EXPERIENCE, text="v1", source_key="run/relu/1/experience")
    b = MemoryEntry(kind=EntryKind.EXPERIENCE, text="v2 differs", source_key="run/relu/1/experience")
    assert store.add_entries([a], np.zeros((1, 2))) == store.add_entries([b], np.zeros((1, 2)))
    assert store.count() == 1


def test_a_failed_transaction_rolls_back(tmp_path):
    store = MemoryStore(tmp_path / "s.sqlite")
    with pytest.raises(RuntimeError):
        with store.transaction() as conn:
            qtable.update_q(conn, "draft", "s", [1], 1.0, 0.3, 0.0)
            raise RuntimeError("boom")
    assert store.query("SELECT COUNT(*) FROM q_values")[0][0] == 0


def _process_worker(path: str, worker: int) -> None:
    store = MemoryStore(path, busy_timeout_ms=60000)
    for i in range(20):
        store.add_entries([MemoryEntry(kind=EntryKind.EXPERIENCE, text=f"p{worker} n{i}")], np.zeros((1, 2)))
        with store.transaction() as conn:
            if qtable.claim(conn, f"{worker}/{i}"):
                qtable.update_q(conn, "draft", "sig", [7], 1.0, 0.3, 0.0)


def test_processes_writing_one_file_lose_no_update(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    MemoryStore(path)
    context = multiprocessing.get_context("spawn")
    procs = [context.Process(target=_process_worker, args=(path, w)) for w in range(3)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    store = MemoryStore(path)
    assert store.count() == 60
    assert store.query("SELECT visits, q FROM q_values")[0] == (60, pytest.approx(1 - 0.7**60))
