"""Profiles: busy fractions, bottleneck and the profiler text."""

from sandboxes.targets.npu.profile import LaunchProfile, Profile
from sandboxes.targets.npu.timeline import PIPES


def launch(busy_vec: float, gm_bytes: int) -> LaunchProfile:
    busy = dict.fromkeys(PIPES, 0.0) | {"VEC": busy_vec, "MTE2": 100.0}
    return LaunchProfile("k", "chip", 1000.0, 2, 2, cycles=1100.0, makespan_cycles=1000.0,
                         bandwidth_floor_cycles=0.0, launch_cycles=100.0, busy=busy, gm_read_bytes=gm_bytes,
                         gm_write_bytes=0, local_bytes=0, instructions=10, hbm_bytes_per_cycle=10.0)


def test_bottleneck_is_the_busiest_pipe_or_saturated_memory():
    profile = Profile([launch(busy_vec=1800.0, gm_bytes=1000)])
    assert profile.pipe_busy()["VEC"] == 0.9 and profile.bottleneck == "VEC"
    saturated = Profile([launch(busy_vec=100.0, gm_bytes=9500)])
    assert saturated.gm_utilisation() == 0.95 and saturated.bottleneck == "GM bandwidth"


def test_text_and_dict_are_labelled_simulated():
    profile = Profile([launch(busy_vec=1800.0, gm_bytes=1000)])
    data = profile.to_dict(roofline_cycles=550.0)
    assert data["simulated"] is True and data["roofline_fraction"] == 0.5 and data["time_us"] == 1.1
    assert profile.text(550.0).startswith("[simulated chip] 1100 cycles")
