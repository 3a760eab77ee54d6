from benchmarks.repo.order import chain_steps, distances, nearest_chain, step_size

BASE = frozenset({("a.py", "1"), ("b.py", "1"), ("c.py", "1")})
NEAR = frozenset({("a.py", "2"), ("b.py", "1"), ("c.py", "1")})  # one file edited
FAR = frozenset({("a.py", "3"), ("b.py", "3"), ("d.py", "1")})  # a, b edited, c deleted, d added
TREES = {"base": BASE, "far": FAR, "near": NEAR}


def test_a_step_counts_each_added_deleted_or_edited_file_once():
    assert step_size(BASE, BASE) == 0 and step_size(BASE, NEAR) == 1 and step_size(BASE, FAR) == 4
    assert distances(TREES)["far", "near"] == distances(TREES)["near", "far"] == 4


def test_the_chain_visits_near_commits_before_far_ones():
    by_time = ["base", "far", "near"]  # "near" came last in time, but is one file from "base"
    assert chain_steps(TREES, by_time) == [4, 4]
    chain = nearest_chain(TREES, by_time)
    assert chain == ["base", "near", "far"] and chain_steps(TREES, chain) == [1, 4]


def test_the_chain_starts_where_its_total_is_smallest_and_ties_keep_time_order():
    line = {"x": frozenset({("m.py", "1")}), "y": frozenset({("m.py", "2")}),
            "z": frozenset({("m.py", "2"), ("n.py", "1")})}
    assert nearest_chain(line, ["y", "x", "z"]) == ["x", "y", "z"]  # 2 files from x or z, 3 from y; x is earlier
    same = dict.fromkeys(["p", "q", "r"], BASE)
    assert nearest_chain(same, ["q", "r", "p"]) == ["q", "r", "p"]
    assert nearest_chain(TREES, ["far", "base"]) == ["far", "base"]
