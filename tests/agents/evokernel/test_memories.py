"""Which memory each wave uses: the shared one, or (no carry-over) a copy of the memory at the run's start."""

from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.memories import RunMemory, default_memory_path
from agents.runtime.run import Run
from memory.qmemory import EntryKind, MemoryEntry, QMemory, QMemoryConfig


def wave_memories(tmp_path, carry):
    shared = tmp_path / f"shared-{carry}.sqlite"
    config = EvoKernelConfig(tasks="builtin:L1:relu", memory=str(shared), waves=2, carry_memory=carry,
                             qmemory=QMemoryConfig(embedding="hashed-tfidf"))
    before = QMemory(shared, config.qmemory)
    before.add([MemoryEntry(kind=EntryKind.EXPERIENCE, text="known before the run", source_key="old")])
    before.close()
    run = Run.create("evokernel", config, tmp_path / "runs")
    return RunMemory(config, run, templates=None), run


def texts(memory):
    return sorted(e.text for e in memory.store.find())


def test_without_carry_over_each_wave_starts_from_the_memory_at_the_start(tmp_path):
    memories, run = wave_memories(tmp_path, carry=False)
    first = memories.for_wave(0)
    first.add([MemoryEntry(kind=EntryKind.EXPERIENCE, text="learned in wave 1", source_key="w1")])
    second = memories.for_wave(1)
    assert texts(second) == ["known before the run"]
    assert (run.dir / "memory-wave0.sqlite").exists() and (run.dir / "memory-wave1.sqlite").exists()
    memories.close()


def test_with_carry_over_later_waves_see_what_earlier_ones_wrote(tmp_path):
    memories, _ = wave_memories(tmp_path, carry=True)
    first = memories.for_wave(0)
    first.add([MemoryEntry(kind=EntryKind.EXPERIENCE, text="learned in wave 1", source_key="w1")])
    assert memories.for_wave(1) is first and texts(first) == ["known before the run", "learned in wave 1"]
    memories.close()


def test_default_memory_path(tmp_path):
    assert default_memory_path("npu", tmp_path) == str(tmp_path / "memory" / "evokernel-npu.sqlite")
