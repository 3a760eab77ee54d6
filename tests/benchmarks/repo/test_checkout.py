import pytest

from benchmarks.repo.checkout import RepoCache, slug, subcommand
from benchmarks.repo.demo import build_demo, commit_all, write_files
from sandboxes.errors import UserError


def test_one_clone_many_worktrees_shared_per_commit(tmp_path):
    repo, instances = build_demo(tmp_path / "src")
    base = instances[0]["base_commit"]
    write_files(repo, {"shop/util.py": "# later\n"})
    later = commit_all(repo, "later")
    cache = RepoCache(tmp_path / "cache")
    first = cache.worktree(str(repo), base)
    assert cache.worktree(str(repo), base) == first
    second = cache.worktree(str(repo), later)
    assert first != second and (second / "shop/util.py").read_text() == "# later\n"
    assert "def round_money" in (first / "shop/util.py").read_text()
    assert len(list((tmp_path / "cache/mirrors").iterdir())) == 1
    assert cache.reader(str(repo), base)("shop/util.py").startswith('"""Money helpers')
    assert cache.reader(str(repo), base)("missing.py") is None


def test_mirrors_folder_and_unavailable_repos(tmp_path):
    repo, instances = build_demo(tmp_path / "mirrors")
    cache = RepoCache(tmp_path / "cache", mirrors=tmp_path / "mirrors")
    assert cache.origin("someone/shop") == str(repo.resolve())
    assert cache.origin("someone/unknown") is None
    with pytest.raises(UserError, match="not available locally"):
        cache.clone("someone/unknown")
    assert RepoCache(tmp_path / "c2", allow_clone=True).origin("o/r") == "https://github.com/o/r.git"
    with pytest.raises(UserError, match="missing"):
        cache.worktree("someone/shop", "f" * 40)
    assert slug("django/django") == "django__django"


def test_urls_are_cloned_only_when_allowed(tmp_path):
    assert RepoCache(tmp_path, allow_clone=True).origin("https://example.org/x.git") == "https://example.org/x.git"
    assert RepoCache(tmp_path).origin("https://example.org/x.git") is None


def test_snapshots_commit_times_and_git_errors_name_the_subcommand(tmp_path):
    repo, instances = build_demo(tmp_path / "src")
    base = instances[0]["base_commit"]
    write_files(repo, {"shop/util.py": "# later\n"})
    later = commit_all(repo, "later", date="2024-06-01T00:00:00")
    cache = RepoCache(tmp_path / "cache")
    snapshot = cache.snapshot(str(repo), base[:12])
    assert snapshot.commit == base and (snapshot.clone / "HEAD").is_file() and snapshot.repo == str(repo)
    times = cache.commit_times(str(repo), [later, base, "f" * 40])
    assert set(times) == {base, later} and times[later] > times[base]
    trees = cache.python_trees(str(repo), [later, base, "f" * 40])
    assert set(trees) == {base, later} and {path for path, _ in trees[base] ^ trees[later]} == {"shop/util.py"}
    assert "README.md" not in {path for path, _ in trees[base]} and ("shop/cart.py" in dict(trees[base]))
    with pytest.raises(UserError, match="missing"):
        cache.snapshot(str(repo), "f" * 40)
    assert subcommand(("-C", "/x", "worktree", "add", "--detach")) == "worktree add"
    assert subcommand(("-c", "a=b", "clone", "--bare")) == "clone --bare"
    target = cache.root / "worktrees" / "occupied"
    target.mkdir(parents=True)
    (target / "file").write_text("in the way")
    with pytest.raises(UserError, match="^git worktree add failed: "):
        from benchmarks.repo.checkout import _git
        _git("-C", str(snapshot.clone), "worktree", "add", "--detach", str(target), base)
