"""JSON messages, blobs and descriptors over a Unix socket between runner and worker."""

import os

import pytest

from benchmarks.kernels.verifier.runner.protocol import Channel, ChannelClosed, ChannelTimeout


def pair(accept_fds=False):
    runner, theirs = Channel.pair()
    return runner, Channel(theirs, accept_fds=accept_fds)


def test_round_trip_and_partial_reads():
    left, right = pair()
    left.send({"cmd": "run", "n": 1})
    left.send({"cmd": "exit"})
    assert right.receive(1.0) == {"cmd": "run", "n": 1}
    assert right.receive(1.0) == {"cmd": "exit"}


def test_a_blob_follows_its_message_and_the_next_message_follows_the_blob():
    left, right = pair()
    data = bytes(range(256)) * 200  # less than the socket buffer: this test sends before it reads
    left.send({"cmd": "output"}, data)
    left.send({"cmd": "next"})
    message = right.receive(1.0)
    assert message["cmd"] == "output" and bytes(message["blob"]) == data and "blob_bytes" not in message
    assert right.receive(1.0) == {"cmd": "next"}


def test_an_announced_blob_over_the_limit_is_a_closed_channel():
    left, right = pair()
    left.send({"cmd": "output"}, b"x" * 100)
    with pytest.raises(ChannelClosed, match="blob of 100 bytes"):
        right.receive(1.0, max_blob_bytes=99)


def test_descriptors_reach_a_channel_that_accepts_them_and_are_closed_by_one_that_does_not():
    read_end, write_end = os.pipe()
    left, right = pair(accept_fds=True)
    left.send({"cmd": "layout"}, fds=[write_end])
    received = right.receive(1.0)["fds"]
    os.write(received[0], b"through the copy")
    assert os.read(read_end, 100) == b"through the copy"
    os.close(received[0])
    strict_left, strict_right = pair(accept_fds=False)
    strict_right.send({"event": "x"}, fds=[write_end])  # from worker to runner: refused
    assert "fds" not in strict_left.receive(1.0)
    os.close(write_end)
    assert os.read(read_end, 100) == b""  # no copy of the write end survived in the runner


def test_timeout_and_closed_peer():
    left, right = pair()
    with pytest.raises(ChannelTimeout):
        right.receive(0.05)
    left.close()
    with pytest.raises(ChannelClosed):
        right.receive(1.0)


def test_malformed_data_is_a_closed_channel():
    left, right = pair()
    left.sock.sendall(b"not json\n")
    with pytest.raises(ChannelClosed, match="malformed"):
        right.receive(1.0)
    left.sock.sendall(b"[1, 2]\n")
    with pytest.raises(ChannelClosed, match="non-object"):
        right.receive(1.0)


def test_a_peer_that_dies_in_the_middle_of_a_blob_is_a_closed_channel():
    left, right = pair()
    left.sock.sendall(b'{"blob_bytes": 10}\n12345')
    left.close()
    with pytest.raises(ChannelClosed, match="middle of a blob"):
        right.receive(1.0)
