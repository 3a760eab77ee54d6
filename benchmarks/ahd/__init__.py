"""Automated-heuristic-design benchmark suite: five problems, seeded instances, baselines, evaluator."""
