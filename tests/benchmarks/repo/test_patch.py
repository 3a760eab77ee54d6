from benchmarks.repo.patch import edited_files, parse_patch

PATCH = """diff --git a/pkg/a.py b/pkg/a.py
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -3,4 +3,4 @@ def f():
 keep
-old line
+new line
+another
 keep
--- still content
@@ -20,2 +21,3 @@
 x
+inserted
 y
diff --git a/pkg/new.py b/pkg/new.py
new file mode 100644
--- /dev/null
+++ b/pkg/new.py
@@ -0,0 +1 @@
+print(1)
diff --git a/pkg/gone.py b/pkg/gone.py
--- a/pkg/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-x = 1
\\ No newline at end of file
"""


def test_touched_old_lines_for_removals_and_insertions():
    first, created, deleted = parse_patch(PATCH)
    assert (first.old_path, first.new_path) == ("pkg/a.py", "pkg/a.py")
    assert first.touched == {4, 6, 20}  # removed lines (one looks like a header); an insertion after 20
    assert (created.old_path, created.new_path) == (None, "pkg/new.py")
    assert (deleted.path, deleted.touched) == ("pkg/gone.py", {1})


def test_edited_files_leave_out_created_files():
    assert edited_files(PATCH) == ["pkg/a.py", "pkg/gone.py"]
