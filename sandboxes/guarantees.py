"""What the local backend guarantees on this host: the claims `agent doctor` prints, tests check and runs warn about.

Each guarantee is either kept, or lacking for a reason this module states in one line (with what would give
it). A claim that is reported as kept must hold: the sandbox tests assert every kept guarantee and skip,
naming the reason, only those this host lacks.
"""

from __future__ import annotations

import os

from sandboxes import hostfs, isolation
from sandboxes.base import Limits

GUARANTEES = {
    "fresh_uid": "every run gets a fresh unprivileged uid, so concurrent runs cannot signal or trace each other",
    "oom_kills_counted": "an out-of-memory kill is counted and reported as such (cgroup)",
    "network_off": "a run has no network unless it asks for it",
    "host_hidden": "a run sees only the system folders, the Python installation and the paths it asks for, "
                   "read-only, and writes only its work dir and a private /tmp",
    "kill_exit_status": "a command killed by signal N exits 128 + N (137 for a kill at the memory limit)",
    "project_visible": "the read-only paths a run asks for (the project, a build cache) are visible wherever "
                       "they live, /tmp included",
    "runner_importable": "the running Python and its packages are visible inside, so the trusted runner imports "
                         "(a virtual environment under /tmp included)",
}
SAFETY = ("fresh_uid", "network_off", "host_hidden")
"""The guarantees whose absence weakens isolation: doctor and the first sandboxed run say so."""


def lacking(caps: isolation.HostCaps, limits: Limits | None = None) -> dict[str, str]:
    """The guarantees this host cannot keep for runs with ``limits``, each with why (empty: all kept)."""
    limits = limits or Limits()
    missing: dict[str, str] = {}
    if isolation.run_as(caps, limits) is None:
        missing["fresh_uid"] = _shared_uid(caps, limits)
    if not caps.cgroups:
        missing["oom_kills_counted"] = ("no writable cgroup here: memory is limited per process (RLIMIT_DATA) and an "
                                        "out-of-memory kill is not detected; run as root with cgroups to get it")
    if caps.mode == "unshare":
        missing["kill_exit_status"] = ("util-linux's unshare exits 1 when its command is killed by SIGKILL, so an "
                                       "out-of-memory kill shows exit 1 (it is still reported as oom_killed); "
                                       "install bubblewrap (apt-get install bubblewrap) for the real status")
    if not caps.bwrap and not caps.private_mounts:  # private mounts: root builds the view itself (rootview.py)
        missing["host_hidden"] = (f"neither bubblewrap nor root's private mount namespace is available: a run sees, "
                                  f"and may write, every file uid {os.geteuid()} can (its home folder, the project) "
                                  "and shares the host's /tmp; install bubblewrap (apt-get install bubblewrap) or "
                                  "run as root")
    if caps.mode == "none" and not caps.private_mounts:
        missing["network_off"] = ("neither bubblewrap nor unshare can create namespaces here: runs reach the "
                                  "network; install bubblewrap (apt-get install bubblewrap)")
    return missing


def kept(caps: isolation.HostCaps, limits: Limits | None = None) -> dict[str, bool]:
    """Every guarantee of :data:`GUARANTEES`, True when this host keeps it."""
    missing = lacking(caps, limits)
    return {name: name not in missing for name in GUARANTEES}


def safety_warnings(caps: isolation.HostCaps) -> list[str]:
    """One line per safety guarantee this host lacks (what `agent doctor` and the first sandboxed run print)."""
    missing = lacking(caps)
    return [f"local sandbox: {missing[name]}" for name in SAFETY if name in missing]


def _shared_uid(caps: isolation.HostCaps, limits: Limits) -> str:
    uid = os.geteuid()
    if not caps.root:
        return (f"not root: concurrent runs share uid {uid} and are kept apart only by their namespaces; run as root "
                "to give each run its own uid")
    hidden = hostfs.hidden_paths(isolation.shown_paths(caps, limits))
    return (f"concurrent runs share uid {uid}: the Python installation lies below {hidden[0]}, which another uid "
            "cannot enter, and no private mount namespace can expose it")
