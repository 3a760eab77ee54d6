import pytest

from agents.repair.worktree import Worktree
from sandboxes.errors import UserError


def test_edits_go_to_a_copy_and_the_diff_holds_changed_and_new_files(tmp_path):
    source = tmp_path / "src"
    (source / "pkg").mkdir(parents=True)
    (source / "pkg" / "a.py").write_text("x = 1\n")
    (source / ".git").mkdir()
    (source / ".git" / "HEAD").write_text("ref\n")
    tree = Worktree.create(tmp_path / "wt", source)
    assert not (tree.root / ".git").exists() and tree.diff() == ""
    (tree.root / "pkg" / "a.py").write_text("x = 2\n")
    (tree.root / "pkg" / "b.py").write_text("y = 1\n")
    diff = tree.diff()
    assert "-x = 1\n+x = 2" in diff and "new file mode" in diff and "+y = 1" in diff
    assert (source / "pkg" / "a.py").read_text() == "x = 1\n"
    assert Worktree.create(tmp_path / "wt", source).diff() == diff  # an existing worktree is kept (resume)
    assert set(tree.files()) == {"pkg/a.py", "pkg/b.py"}


def test_paths_outside_the_worktree_are_refused(tmp_path):
    (tmp_path / "src").mkdir()
    tree = Worktree.create(tmp_path / "wt", tmp_path / "src")
    with pytest.raises(UserError, match="outside the worktree"):
        tree.path("../../etc/passwd")
    with pytest.raises(UserError, match="not a directory"):
        Worktree.create(tmp_path / "other", tmp_path / "missing")
