from benchmarks.resolve.tree import apply_patch, read_tree

PATCH = "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n a = 1\n-b = 1\n+b = 2\n c = 1\n"


def test_git_apply_first_then_patch_with_fuzz_then_a_clear_failure(tmp_path):
    tree = tmp_path / "repo"
    tree.mkdir()
    (tree / "m.py").write_text("a = 1\nb = 1\nc = 1\n")
    applied = apply_patch(tree, PATCH, "model")
    assert applied.ok and applied.command.startswith("git apply") and (tree / "m.py").read_text() == "a = 1\nb = 2\nc = 1\n"
    (tree / "m.py").write_text("a = 0\nb = 1\nc = 1\n")  # a context line changed: only the fuzzy patch applies it
    applied = apply_patch(tree, PATCH, "model")
    assert applied.ok and applied.command.startswith("patch") and "b = 2" in (tree / "m.py").read_text()
    applied = apply_patch(tree, PATCH.replace("-b = 1", "-b = 7"), "model")  # removes a line the file lacks
    assert not applied.ok and "$ git apply" in applied.log and "$ patch" in applied.log
    assert read_tree(tree) == {"m.py": b"a = 0\nb = 2\nc = 1\n"}  # no .rej or .orig left, nothing half-applied
