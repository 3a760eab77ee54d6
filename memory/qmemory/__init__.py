"""Q-value experience memory: four kinds of entries in SQLite, dense recall, stage Q-values, PopArt."""

from memory.qmemory.config import QMemoryConfig
from memory.qmemory.entries import EntryKind, MemoryEntry
from memory.qmemory.memory import QInherit, QMemory, QUpdate, Retrieved
from memory.qmemory.popart import PopArt
from memory.qmemory.signature import StateSignature, error_category, shape_bucket

__all__ = ["EntryKind", "MemoryEntry", "PopArt", "QInherit", "QMemory", "QMemoryConfig", "QUpdate", "Retrieved",
           "StateSignature", "error_category", "shape_bucket"]
