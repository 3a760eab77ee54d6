from benchmarks.drc.tasks import TEMPLATES, build_deck, make_spec, snap


def test_snap_to_grid():
    assert snap(0.14, 1.2) == 170 and snap(0.001) == 30


def test_each_template_builds_a_spec_with_conventions():
    import random

    for template in TEMPLATES:
        choice = template.choices[0]
        checks = template.build(choice, 1.0, random.Random(0))
        spec = make_spec("t-00", template, choice, checks)
        deck = spec.gold_deck
        assert deck.splitlines()[1:3] == ["source($input)", f'report("{spec.title}", $output)']
        assert deck == build_deck("t-00", spec.title, checks)
        assert len(set(spec.categories)) == len(checks)
        for category in spec.categories:
            assert deck.count(f'.output("{category}"') == 1
        for layer in spec.layers:
            assert f"{layer.name} = input({layer.layer}, {layer.datatype})" in deck
