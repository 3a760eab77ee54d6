"""``agent sandbox selftest``: run every attack on a backend and report whether each was contained."""

from __future__ import annotations

import time

from sandboxes.attack_kit import TIGHT, new_marker
from sandboxes.attacks import ATTACKS
from sandboxes.attacks_leftovers import IPC_OBJECTS, ipc_key
from sandboxes.base import Sandbox
from sandboxes.select import get_sandbox
from sandboxes.survivors import Watch

NEXT_RUN = IPC_OBJECTS + """
children = [os.fork() for _ in range(4)]
if 0 in children:
    os._exit(0)
for pid in children:
    os.waitpid(pid, 0)
ballast = bytearray(64 * 2**20)
print("ok", sorted(os.listdir(".")), "ipc", find_ipc(int(sys.argv[1]), sys.argv[2]))
"""


NEXT_RUN_LIMITS = TIGHT.model_copy(update={"wall_s": 10.0, "cpu_s": 10.0})
"""The cases' container limits (a warm docker pool hands the next job the container the case used)."""


def _next_run_ok(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """A plain job right after an attack must behave normally: it can fork, allocate, finds an empty work dir,
    and none of the IPC objects the case may have made (see :func:`sandboxes.attacks_leftovers.ipc_left`)."""
    try:
        result = sandbox.run(["python", "-c", NEXT_RUN, str(ipc_key(marker)), marker], limits=NEXT_RUN_LIMITS)
    except Exception as error:  # a sandbox broken by the case is a failure to contain it, not a crash
        return False, f"next run raised {type(error).__name__}: {error}"
    ok = result.ok and result.stdout.startswith("ok [] ipc []")
    return ok, "" if ok else f"next run affected: rc={result.returncode} out={result.stdout.strip()!r:.80}"


def run_case(sandbox: Sandbox, attack) -> dict:
    """One row: the attack's own verdict, no surviving process (by process tree), and an unaffected next run."""
    marker = new_marker()
    started = time.monotonic()
    with Watch(sandbox) as watch:
        try:
            contained, detail = attack.run(sandbox, marker)
        except Exception as error:  # an attack that breaks the sandbox API is a failure to contain, not a crash
            contained, detail = False, f"raised {type(error).__name__}: {error}"
        left = watch.left()
    next_ok, next_detail = _next_run_ok(sandbox, marker)
    if left:
        detail += f"; processes survived: {left}"
    if not next_ok:
        detail += f"; {next_detail}"
    return {"case": attack.name, "contained": bool(contained and not left and next_ok), "detail": detail,
            "seconds": round(time.monotonic() - started, 2)}


def run_selftest(backend: str = "auto", cases: list[str] | None = None) -> tuple[dict, list[dict]]:
    """Run the adversarial suite on ``backend``; returns ``(summary, rows)`` with one row per case."""
    sandbox = get_sandbox(backend)
    rows = [run_case(sandbox, attack) for attack in ATTACKS if not cases or attack.name in cases]
    contained = sum(row["contained"] for row in rows)
    summary = {"backend": sandbox.name, "cases": len(rows), "contained": contained,
               "all_contained": contained == len(rows)}
    protections = getattr(sandbox, "protections", None)
    if protections:
        summary["protections"] = ", ".join(f"{k}={v}" for k, v in protections.items())
    return summary, rows
