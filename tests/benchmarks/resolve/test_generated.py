import json

from benchmarks.repo.patch import parse_patch
from benchmarks.resolve.generated import adversarial_predictions, build_generated
from benchmarks.resolve.instances import load_instances
from benchmarks.resolve.specs import load_specs, spec_for


def test_the_shipped_benchmark_is_swebench_shaped_and_the_same_on_every_build(tmp_path):
    first, second = build_generated(tmp_path / "a"), build_generated(tmp_path / "b")
    instances = load_instances(first.instances)
    assert len(instances) >= 10 and len({i.repo for i in instances}) == 2
    assert [r["base_commit"] for r in first.rows] == [r["base_commit"] for r in second.rows]
    specs = load_specs(first.specs)
    for instance in instances:
        assert instance.fail_to_pass and instance.pass_to_pass and instance.problem_statement
        assert not set(instance.fail_to_pass) & set(instance.pass_to_pass)
        assert all(test.startswith("tests/") for test in instance.fail_to_pass + instance.pass_to_pass)
        assert [e.new_path for e in parse_patch(instance.patch)] != [e.new_path for e in parse_patch(instance.test_patch)]
        assert spec_for(instance, specs).system_site_packages
    assert json.loads(first.instances.read_text().splitlines()[0])["log_parser"] == "parse_log_pytest"


def test_the_adversarial_patches_differ_from_gold(tmp_path):
    generated = build_generated(tmp_path)
    gold = {row["instance_id"]: row["patch"] for row in generated.rows}
    bad = adversarial_predictions(generated)
    assert set(bad) == {"textkit-1", "shapes-1"} and all(bad[i].model_patch != gold[i] for i in bad)
