import subprocess
import sys


def test_runner_refuses_to_run_outside_a_container():
    code = "from sandboxes.container_runner import main; main()"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "PID 1" in proc.stderr


def test_every_answer_carries_its_requests_id():
    import json

    from sandboxes.container_runner import _serve

    handlers = {"ping": lambda request: {"ready": True}}
    assert _serve(json.dumps({"op": "ping", "id": "r1"}).encode(), handlers) == {"ready": True, "id": "r1"}
    failed = _serve(json.dumps({"op": "nope", "id": "r2"}).encode(), handlers)
    assert failed["id"] == "r2" and "KeyError" in failed["error"]
    assert _serve(b"{not json", handlers)["id"] is None
