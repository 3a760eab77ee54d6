"""JSON messages over pipes between runner and worker."""

import os

import pytest

from benchmarks.kernels.verifier.runner.protocol import Channel, ChannelClosed, ChannelTimeout


def pair():
    a_r, b_w = os.pipe()
    b_r, a_w = os.pipe()
    return Channel(a_r, a_w), Channel(b_r, b_w)


def test_round_trip_and_partial_reads():
    left, right = pair()
    left.send({"cmd": "run", "n": 1})
    left.send({"cmd": "exit"})
    assert right.receive(1.0) == {"cmd": "run", "n": 1}
    assert right.receive(1.0) == {"cmd": "exit"}


def test_timeout_and_closed_peer():
    left, right = pair()
    with pytest.raises(ChannelTimeout):
        right.receive(0.05)
    os.close(left.write_fd)
    with pytest.raises(ChannelClosed):
        right.receive(1.0)


def test_malformed_data_is_a_closed_channel():
    left, right = pair()
    os.write(left.write_fd, b"not json\n")
    with pytest.raises(ChannelClosed, match="malformed"):
        right.receive(1.0)
    os.write(left.write_fd, b"[1, 2]\n")
    with pytest.raises(ChannelClosed, match="non-object"):
        right.receive(1.0)
