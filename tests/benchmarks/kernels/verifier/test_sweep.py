"""The between-requests sweep, run in a child interpreter (it kills every descendant of its caller)."""

import json
import subprocess
import sys

SCRIPT = r'''
import json, os, time
from benchmarks.kernels.verifier.runner import sweep
from sandboxes import linux

linux.set_child_subreaper()
spared = os.fork()
if spared == 0:
    time.sleep(60)
    os._exit(0)
if os.fork() == 0:                      # a daemon: new session, parent gone, forks on and on
    os.setsid()
    if os.fork() == 0:
        while True:
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
            time.sleep(0.01)
    os._exit(0)
work = os.environ["WORK"]
locked = os.path.join(work, "request-0", "locked")
os.makedirs(locked)
open(os.path.join(locked, "f"), "w").write("x")
os.chmod(locked, 0)
time.sleep(0.3)
before = len(sweep.descendants(os.getpid(), {spared}))
clean = sweep.kill_descendants({spared}) and sweep.remove_entries(work)
print(json.dumps({"before": before, "clean": clean, "after": sweep.descendants(os.getpid(), {spared}),
                  "left": os.listdir(work), "spared_alive": os.waitpid(spared, os.WNOHANG)[0] == 0}))
os.kill(spared, 9)
'''


def test_daemons_and_locked_folders_are_gone_and_the_spared_process_lives(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60,
                          env={"WORK": str(work), "PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)})
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["before"] >= 2 and report["clean"], (report, done.stderr)
    assert report["after"] == {} and report["left"] == [] and report["spared_alive"]
