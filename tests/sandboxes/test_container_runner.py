import subprocess
import sys


def test_runner_refuses_to_run_outside_a_container():
    code = "from sandboxes.container_runner import main; main()"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "PID 1" in proc.stderr
