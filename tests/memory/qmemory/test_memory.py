import threading

import pytest

from memory.qmemory import EntryKind, MemoryEntry, QInherit, QMemory, QMemoryConfig, QUpdate, StateSignature

SIG = StateSignature("npu", "elementwise", "draft", "2^20", "none").key()


@pytest.fixture
def memory(tmp_path):
    mem = QMemory(tmp_path / "mem.sqlite", QMemoryConfig(embedding="hashed-tfidf"))
    yield mem
    mem.close()


def experience(text, task="a", **fields):
    return MemoryEntry(kind=EntryKind.EXPERIENCE, text=text, task=task, **fields)


def test_q_after_known_rewards_follows_the_monte_carlo_update(memory):
    ids = memory.add([experience("use double buffering"), experience("align copies to 32 bytes")])
    memory.learn("t:1", [QUpdate("draft", SIG, ids)], 1.0)
    assert memory.q("draft", SIG, ids) == pytest.approx({ids[0]: 0.3, ids[1]: 0.3})
    memory.learn("t:2", [QUpdate("draft", SIG, ids[:1])], -1.0)  # 0.3 + 0.3 * (-1 - 0.3) = -0.09
    memory.learn("t:3", [QUpdate("draft", SIG, ids[:1])], 1.0)  # -0.09 + 0.3 * (1 + 0.09) = 0.237
    assert memory.q("draft", SIG, ids) == pytest.approx({ids[0]: 0.237, ids[1]: 0.3})
    # other stages and signatures are separate keys that still read q_init
    assert memory.q("refine", SIG, ids) == {ids[0]: 0.0, ids[1]: 0.0}


def test_q_init_and_alpha_are_configurable(tmp_path):
    mem = QMemory(tmp_path / "m.sqlite", QMemoryConfig(embedding="hashed-tfidf", alpha=0.5, q_init=0.2))
    (entry_id,) = mem.add([experience("x")])
    assert mem.q("draft", SIG, [entry_id]) == {entry_id: 0.2}
    mem.learn("k", [QUpdate("draft", SIG, [entry_id])], -1.0)  # 0.2 + 0.5 * (-1 - 0.2) = -0.4
    assert mem.q("draft", SIG, [entry_id])[entry_id] == pytest.approx(-0.4)


def test_a_key_is_learned_once_so_a_resumed_step_changes_nothing(memory):
    (entry_id,) = memory.add([experience("tile by 2048")])
    assert memory.learn("run1/relu/3", [QUpdate("draft", SIG, [entry_id])], 1.0) == 1.0
    assert memory.learn("run1/relu/3", [QUpdate("draft", SIG, [entry_id])], 1.0) is None
    assert memory.q("draft", SIG, [entry_id])[entry_id] == pytest.approx(0.3)


def test_a_child_starts_from_its_parents_updated_value_and_takes_the_reward_of_its_making(memory):
    parent, child, duplicate = memory.add([experience("draft"), experience("child"), experience("old kernel")])
    other = StateSignature("npu", "elementwise", "refine", "2^20", "none").key()
    memory.learn("seen", [QUpdate("start", other, [duplicate])], -1.0)  # duplicate: -0.3, 1 visit
    inherit = [QInherit("start", SIG, parent, other, child), QInherit("start", SIG, parent, other, duplicate)]
    assert memory.learn("t:1", [QUpdate("start", SIG, [parent])], 1.0, inherits=inherit) == 1.0
    # parent 0 + 0.3 (1 - 0) = 0.3; child seeded at 0.3, then 0.3 + 0.3 (1 - 0.3) = 0.51; a key held before keeps
    assert memory.q("start", SIG, [parent])[parent] == pytest.approx(0.3)
    assert memory.q("start", other, [child, duplicate]) == pytest.approx({child: 0.51, duplicate: -0.3})
    assert memory.learn("t:1", [QUpdate("start", SIG, [parent])], 1.0, inherits=inherit) is None  # resumed: no-op
    rows = memory.store.query("SELECT memory_id, q, visits FROM q_values WHERE stage = 'start' AND signature = ?",
                              (other,))
    assert sorted(rows) == sorted([(child, pytest.approx(0.51), 1), (duplicate, pytest.approx(-0.3), 1)])


def test_refine_rewards_are_popart_normalised_before_the_q_update(memory):
    (entry_id,) = memory.add([experience("more cores")])
    applied = memory.learn("r1", [QUpdate("refine", SIG, [entry_id])], 0.5, popart="npu")
    assert applied == pytest.approx(0.468521, abs=1e-6)  # see test_popart: (0.5 - 0.05) / sqrt(0.9225)
    assert memory.q("refine", SIG, [entry_id])[entry_id] == pytest.approx(0.3 * 0.468521, abs=1e-6)


def test_an_experience_written_on_task_a_is_retrieved_on_task_b(memory):
    memory.add([experience("relu kernel: UB overflow when tile length 65536 exceeds the 192 KB unified buffer; "
                           "use tile length 8192 with double buffering", task="relu"),
                experience("matmul cube fractal layout needs 16x16 blocks", task="matmul"),
                experience("layernorm reduce then broadcast the mean", task="layernorm")])
    query = "task gelu elementwise activation kernel, error: UB overflow tile length too large"
    chosen = memory.retrieve(query, "draft", SIG, [EntryKind.EXPERIENCE], n=1)
    assert chosen[0].entry.task == "relu"


def test_retrieval_prefers_high_q_among_the_recalled_candidates(memory):
    ids = memory.add([experience(f"softmax tip {i}: subtract the max before exp") for i in range(6)])
    memory.learn("good", [QUpdate("draft", SIG, [ids[4]])], 1.0)
    memory.learn("bad", [QUpdate("draft", SIG, [ids[0]])], -1.0)
    config = memory.config.model_copy(update={"epsilon": 0.0, "top_n": 2, "recall_factor": 3.0})
    memory.config = config
    chosen = memory.retrieve("softmax subtract max exp", "draft", SIG, [EntryKind.EXPERIENCE])
    assert chosen[0].entry.id == ids[4] and chosen[0].q == pytest.approx(0.3)
    assert ids[0] not in [c.entry.id for c in chosen]


def test_api_templates_are_retrieved_by_similarity_only(memory):
    api = memory.add([MemoryEntry(kind=EntryKind.API, text="template relu: DataCopy, Relu, DataCopy out"),
                      MemoryEntry(kind=EntryKind.API, text="template matmul: Mmad on L0A L0B into L0C")])
    memory.add([experience("relu relu relu")])
    memory.learn("x", [QUpdate("draft", SIG, [api[1]])], 1.0)
    chosen = memory.retrieve_api("write a relu kernel", n=1)
    assert [c.entry.id for c in chosen] == [api[0]] and chosen[0].entry.kind is EntryKind.API


def test_a_second_instance_sees_entries_written_by_the_first(memory, tmp_path):
    other = QMemory(tmp_path / "mem.sqlite", QMemoryConfig(embedding="hashed-tfidf"))
    memory.add([experience("cumsum scan in blocks")])
    chosen = other.retrieve("cumsum", "draft", SIG, [EntryKind.EXPERIENCE], n=1)
    assert chosen[0].entry.text == "cumsum scan in blocks"
    other.close()


def test_concurrent_workers_write_and_learn_without_losing_updates(memory):
    (shared,) = memory.add([experience("shared tip")])

    def worker(w):
        for i in range(25):
            memory.add([experience(f"worker {w} note {i}")])
            memory.learn(f"w{w}/{i}", [QUpdate("draft", SIG, [shared])], 1.0)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert memory.store.count(EntryKind.EXPERIENCE) == 101
    assert memory.store.query("SELECT visits FROM q_values")[0][0] == 100
    assert memory.q("draft", SIG, [shared])[shared] == pytest.approx(1 - 0.7**100)
    memory.sync()
    assert len(memory.index) == 101


def test_duplicate_content_keeps_one_entry(memory):
    first = memory.add([experience("same words")])
    again = memory.add([experience("same words")])
    assert first == again and memory.store.count() == 1


def test_children_are_found_by_parent(memory):
    (parent,) = memory.add([MemoryEntry(kind=EntryKind.TRACE, text="draft v1")])
    memory.add([MemoryEntry(kind=EntryKind.TRACE, text=f"refine {i}", parent_id=parent) for i in range(3)])
    children = memory.store.find("parent_id = ?", (parent,))
    ranked = memory.rank("refine 2", children, "refine", SIG)
    assert len(ranked) == 3 and ranked[0].entry.text == "refine 2"
