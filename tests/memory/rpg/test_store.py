import sqlite3

import pytest

from memory.rpg import store
from sandboxes.errors import UserError
from tests.memory.rpg.test_graph import small_graph


@pytest.mark.parametrize("name", ["graph.json", "graph.sqlite"])
def test_round_trip_is_node_for_node_and_edge_for_edge(tmp_path, name):
    rpg = small_graph()
    rpg.meta["lifter"] = "offline"
    rpg.node("pkg/a.py").extra = {"module": "pkg.a", "imports": [["os", "os", ""]]}
    loaded = store.load(store.save(rpg, tmp_path / name))
    assert loaded.signature() == rpg.signature()
    assert (loaded.name, loaded.commit, loaded.meta) == ("demo", "abc", {"lifter": "offline"})


def test_sqlite_is_queryable_by_path_and_edge_kind(tmp_path):
    path = store.save_sqlite(small_graph(), tmp_path / "g.sqlite")
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM nodes WHERE path = 'pkg/a.py'").fetchone()[0] == 4
        assert db.execute("SELECT source, target FROM edges WHERE kind = 'invokes'").fetchall() == [
            ("pkg/a.py:C.run", "pkg/a.py:helper")]


def test_bad_files_are_user_errors(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(UserError):
        store.load(tmp_path / "bad.json")
    (tmp_path / "old.json").write_text('{"format": 99, "nodes": [], "edges": []}')
    with pytest.raises(UserError, match="format"):
        store.load(tmp_path / "old.json")
    with pytest.raises(UserError):
        store.load(tmp_path / "missing.sqlite")
