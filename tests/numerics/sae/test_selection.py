import pytest
import torch

from numerics.sae.selection import SweepPoint, elbow, sweep, sweep_warning
from numerics.sae.toy import make_toy_model


def test_elbow_takes_the_first_k_on_the_floor():
    points = [SweepPoint(k, score, 0.0, 0.0) for k, score in [(3, 0.4), (7, 0.39), (11, 0.19), (15, 0.18), (19, 0.23)]]
    assert elbow(points) == 11
    assert elbow(points, tolerance=0.0) == 15


@pytest.mark.slow
def test_proxy_finds_the_true_l0_on_the_toy_model():
    torch.set_num_threads(1)
    toy = make_toy_model()
    generator = torch.Generator().manual_seed(1)
    held_out = toy.sample(4096, torch.Generator().manual_seed(99))[0]
    # k=8 is below the true L0 (~11.1) and outside the tolerance, as are 14 and 17 above it: a proxy that
    # picked the sweep's first or last k fails
    points = sweep(lambda n: toy.sample(n, generator)[0], held_out, [8, 11, 14, 17], width=50,
                   steps=1200, directions=toy.directions)
    chosen = elbow(points)
    assert abs(chosen - toy.true_l0) <= 2
    best = max(points, key=lambda p: p.recovery)
    assert abs(best.k - toy.true_l0) <= 2


def test_a_sweep_that_cannot_show_the_elbow_is_warned_about():
    assert "stops at k=9, below the true L0 11.1" in sweep_warning(range(1, 10), 9, true_l0=11.1)
    assert "raise --k-max above 11" in sweep_warning(range(1, 10), 9, true_l0=11.1)
    assert "elbow is the sweep's last k=15" in sweep_warning([5, 10, 15], 15)
    assert sweep_warning(range(1, 22, 2), 11, true_l0=11.1) is None
