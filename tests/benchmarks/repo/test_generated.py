import subprocess

from benchmarks.repo.generated import BUGS, GOLD_FUNCTIONS, build_generated
from benchmarks.repo.gold import gold_for


def test_patches_apply_at_their_commits_and_gold_names_the_fixed_functions(tmp_path):
    repo, instances = build_generated(tmp_path)
    assert [i["instance_id"] for i in instances] == [b[0] for b in BUGS]
    assert len({i["base_commit"] for i in instances}) == 3
    for instance in instances:
        commit = instance["base_commit"]

        def read(path, commit=commit):
            done = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], capture_output=True, text=True)
            return done.stdout if done.returncode == 0 else None
        gold = gold_for(instance["patch"], read, None)
        assert gold.functions == [GOLD_FUNCTIONS[instance["instance_id"]]]
    assert (repo / "tests" / "test_invoices.py").read_text().count("apply_tax") >= 3  # the test-file trap
    assert not (repo / "ledger/core/money.py").exists() and (repo / "ledger/money.py").exists()  # moved last


def test_generation_is_deterministic(tmp_path):
    assert build_generated(tmp_path / "a")[1] == [
        {**i, "repo": str((tmp_path / "a" / "ledger").resolve())} for i in build_generated(tmp_path / "b")[1]]
