"""The runner's channel: an answer must carry its request's id and come alone (real sockets, real frames)."""

import json
import socket

import pytest

from sandboxes.docker_channel import STDERR, STDOUT, Channel, ChannelClosed


class _Attach:
    """What the engine's attach call returns, reduced to what Channel uses: the hijacked socket."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def close(self) -> None:
        self._sock.close()


def _frame(stream: int, payload: bytes) -> bytes:
    return bytes([stream, 0, 0, 0]) + len(payload).to_bytes(4, "big") + payload


@pytest.fixture()
def pair():
    ours, runner = socket.socketpair()
    channel = Channel(_Attach(ours))
    yield channel, runner
    channel.close()
    runner.close()


def _say(runner: socket.socket, *messages: dict, stream: int = STDOUT) -> None:
    runner.sendall(_frame(stream, b"".join(json.dumps(m).encode() + b"\n" for m in messages)))


def test_the_answer_to_the_request_comes_back(pair):
    channel, runner = pair
    _say(runner, {"hello": "warning"}, stream=STDERR)  # the runner's stderr is kept apart, never an answer
    _say(runner, {"id": "a1", "ready": True})
    assert channel.answer("a1", 5) == {"id": "a1", "ready": True}


def test_an_answer_with_another_id_is_fatal(pair):
    channel, runner = pair
    _say(runner, {"id": "forged", "ready": True})
    with pytest.raises(ChannelClosed, match="out-of-step"):
        channel.answer("a1", 5)


def test_an_extra_line_after_the_answer_is_fatal(pair):
    channel, runner = pair
    _say(runner, {"id": "a1", "ready": True}, {"id": "a2", "ready": True})
    with pytest.raises(ChannelClosed, match="answers no request"):
        channel.answer("a1", 5)


def test_a_line_nobody_asked_for_is_found_before_the_next_request(pair):
    channel, runner = pair
    _say(runner, {"id": "a1", "ready": True})
    channel.answer("a1", 5)
    _say(runner, {"id": "a2", "outcome": "forged"})
    with pytest.raises(ChannelClosed, match="answers no request"):
        channel.check_quiet()


def test_a_malformed_answer_is_fatal(pair):
    channel, runner = pair
    runner.sendall(_frame(STDOUT, b"{not json\n"))
    with pytest.raises(ChannelClosed, match="malformed"):
        channel.answer("a1", 5)


def test_a_long_answer_in_many_frames_comes_back_whole(pair):
    """A long answer arrives in 32 KiB frames (each frame re-split the whole buffer before: quadratic host CPU)."""
    import threading

    channel, runner = pair
    line = json.dumps({"id": "a1", "data": "x" * (4 << 20)}).encode() + b"\n"
    frames = b"".join(_frame(STDOUT, line[i:i + (32 << 10)]) for i in range(0, len(line), 32 << 10))
    sender = threading.Thread(target=runner.sendall, args=(frames,))
    sender.start()
    assert len(channel.answer("a1", 60)["data"]) == 4 << 20
    sender.join()
