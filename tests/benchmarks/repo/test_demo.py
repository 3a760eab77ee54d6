import json
import subprocess

from benchmarks.repo.demo import build_demo, write_demo_instances


def test_demo_patches_apply_to_the_base_commit(tmp_path):
    repo, instances = build_demo(tmp_path)
    assert len({i["base_commit"] for i in instances}) == 1
    for instance in instances:
        check = subprocess.run(["git", "-C", str(repo), "apply", "--check", "-"], input=instance["patch"],
                               text=True, capture_output=True)
        assert check.returncode == 0, check.stderr


def test_demo_is_deterministic_and_written_as_jsonl(tmp_path):
    path = write_demo_instances(tmp_path / "a")
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["instance_id"] for r in rows] == ["demo__shop-1", "demo__shop-2", "demo__shop-3"]
    assert build_demo(tmp_path / "b")[1][0]["base_commit"] == rows[0]["base_commit"]
