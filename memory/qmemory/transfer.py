"""Export a memory to JSON Lines and import it into another (e.g. to hand it to another model).

Entries are re-embedded on import, so the receiving memory may use another embedder. Ids are
remapped; Q-values and PopArt statistics follow their entries, and on a clash the record with
more updates wins.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from sandboxes.errors import UserError

from memory.qmemory.entries import MemoryEntry
from memory.qmemory.memory import QMemory

FORMAT = "agentkiln-qmemory"


def export_memory(memory: QMemory, path: str | Path) -> dict[str, int]:
    """Write every entry, Q-value and PopArt record to ``path``; returns counts."""
    entries = sorted(memory.store.find(), key=lambda e: e.id)
    q_rows = memory.store.query("SELECT stage, signature, memory_id, q, visits FROM q_values")
    pop_rows = memory.store.query("SELECT name, mean, second, count FROM popart")
    with Path(path).open("w") as out:
        _line(out, {"format": FORMAT, "version": 1, "embedder": memory.embedder.name})
        for entry in entries:
            _line(out, {"entry": entry.to_dict()})
        for stage, signature, memory_id, q, visits in q_rows:
            _line(out, {"q": {"stage": stage, "signature": signature, "memory_id": memory_id, "q": q,
                              "visits": visits}})
        for name, mean, second, count in pop_rows:
            _line(out, {"popart": {"name": name, "mean": mean, "second": second, "count": count}})
    return {"entries": len(entries), "q_values": len(q_rows), "popart": len(pop_rows)}


def import_memory(memory: QMemory, path: str | Path) -> dict[str, int]:
    """Merge an exported file into ``memory``; returns counts of what was read."""
    records = list(_read(Path(path)))
    entries = [MemoryEntry.from_dict(r["entry"]) for r in records if "entry" in r]
    old_ids, old_parents = [e.id for e in entries], [e.parent_id for e in entries]
    for entry in entries:
        entry.id = entry.parent_id = None
    id_map = dict(zip(old_ids, memory.add(entries)))
    _link_parents(memory, [id_map[i] for i in old_ids], old_parents, id_map)
    q_rows = [r["q"] for r in records if "q" in r and r["q"]["memory_id"] in id_map]
    pop_rows = [r["popart"] for r in records if "popart" in r]
    with memory.store.transaction() as conn:
        for row in q_rows:
            conn.execute(
                "INSERT INTO q_values (stage, signature, memory_id, q, visits) VALUES (?1, ?2, ?3, ?4, ?5)"
                " ON CONFLICT(stage, signature, memory_id) DO UPDATE SET q = ?4, visits = ?5 WHERE visits < ?5",
                (row["stage"], row["signature"], id_map[row["memory_id"]], row["q"], row["visits"]))
        for row in pop_rows:
            conn.execute("INSERT INTO popart (name, mean, second, count) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(name)"
                         " DO UPDATE SET mean = ?2, second = ?3, count = ?4 WHERE count < ?4",
                         (row["name"], row["mean"], row["second"], row["count"]))
    return {"entries": len(entries), "q_values": len(q_rows), "popart": len(pop_rows)}


def _link_parents(memory: QMemory, ids: list[int], old_parents: list[int | None], id_map: dict[int, int]) -> None:
    """Point imported children at their imported parents' new ids."""
    with memory.store.transaction() as conn:
        for entry_id, parent in zip(ids, old_parents):
            if parent in id_map:
                conn.execute("UPDATE entries SET parent_id = ? WHERE id = ?", (id_map[parent], entry_id))


def _read(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        raise UserError(f"memory export '{path}' does not exist")
    with path.open() as handle:
        for number, line in enumerate(handle, 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise UserError(f"{path}:{number}: not a memory export line ({error.msg})") from error
            if number == 1 and record.get("format") != FORMAT:
                raise UserError(f"{path} is not an agentkiln memory export (no '{FORMAT}' header)")
            yield record


def _line(out: Any, record: dict[str, Any]) -> None:
    out.write(json.dumps(record) + "\n")
