"""The stderr relay of docker-spawned processes: every byte passes, in a bounded number of writes."""

import socket
import subprocess
import sys
from pathlib import Path

from sandboxes import stderr_relay

JOB = """
import os, sys, time
sys.path.insert(0, {root!r})
from sandboxes.stderr_relay import relay_stderr
relay_stderr()
try:
    os.wait()
    print("the relay is a child of the job")
except ChildProcessError:
    print("no child")
for _ in range(600):
    os.write(2, b"x")
    time.sleep(0.001)
"""


def test_a_byte_at_a_time_arrives_whole_in_few_writes():
    """Each write of a docker-exec'd process is a message through four daemons: 600 one-byte writes in about a
    second arrive as at most a burst plus a second's rate of writes (each record of a SEQPACKET socket is one)."""
    root = str(Path(stderr_relay.__file__).parents[1])
    receiver, sender = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    job = subprocess.Popen([sys.executable, "-c", JOB.format(root=root)], stdout=subprocess.PIPE, stderr=sender)
    sender.close()
    records = []
    while record := receiver.recv(1 << 17):
        records.append(record)
    assert job.wait(30) == 0 and job.stdout.read() == b"no child\n"
    assert b"".join(records) == b"x" * 600
    assert len(records) <= stderr_relay.BURST + 2 * stderr_relay.RATE_PER_S, len(records)
