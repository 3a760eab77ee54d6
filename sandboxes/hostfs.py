"""Which host paths a local sandbox shows read-only, and how to reach those a non-root user cannot."""

from __future__ import annotations

import glob
import os
import stat
import sys
from pathlib import Path

from sandboxes import linux

SYSTEM_DIRS = ("/usr", "/etc", "/opt", "/sys")
MERGED_USR_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ACCELERATOR_DEVICES = ("/dev/nvidia*", "/dev/nvidia-caps/*", "/dev/dri/*", "/dev/davinci*", "/dev/davinci_manager",
                       "/dev/devmm_svm", "/dev/hisi_hdc")


WORKDIR_CANDIDATES = ("/work", "/sandbox-work", "/agentkiln-work")


def inside_workdir(extra_ro_paths: list[str] | tuple[str, ...]) -> str:
    """Where the work dir appears inside a sandbox: ``/work`` unless a read-only host path lives there
    (e.g. a project checked out below /work), which the work dir must not hide."""
    shown = [os.path.realpath(p) for p in extra_ro_paths] + python_dirs()
    for candidate in WORKDIR_CANDIDATES:
        if not any(p == candidate or p.startswith(candidate + "/") for p in shown):
            return candidate
    raise ValueError("no free place for the work dir inside the sandbox")


def python_dirs() -> list[str]:
    """The running Python's installation (so ``python`` inside sees the same packages)."""
    return sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})


def package_dir() -> str:
    """This ``sandboxes`` package's folder (the unshare path's seccomp launcher imports it inside)."""
    return os.path.dirname(os.path.realpath(__file__))


def package_root() -> str:
    """The folder that holds the ``sandboxes`` package (what the launcher puts on ``sys.path``)."""
    return os.path.dirname(package_dir())


def readonly_dirs(extra: list[str]) -> list[str]:
    """Existing host directories to bind read-only, outermost first, without ones nested in others."""
    wanted = [p for p in (*SYSTEM_DIRS, *python_dirs(), *(os.path.realpath(e) for e in extra)) if os.path.exists(p)]
    kept: list[str] = []
    for path in sorted(set(wanted), key=len):
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def merged_usr_links() -> list[tuple[str, str | None]]:
    """(path, symlink target or None for a real directory) for /bin, /lib and friends."""
    out = []
    for path in MERGED_USR_LINKS:
        if os.path.islink(path):
            out.append((path, os.readlink(path)))
        elif os.path.isdir(path):
            out.append((path, None))
    return out


def accelerator_devices() -> list[str]:
    return sorted({p for pattern in ACCELERATOR_DEVICES for p in glob.glob(pattern)})


def blocking_ancestor(path: str) -> str | None:
    """The outermost ancestor of ``path`` that other users cannot traverse (e.g. ``/root``), if any."""
    current = Path("/")
    for part in Path(path).parts[1:-1]:
        current = current / part
        if not os.stat(current).st_mode & stat.S_IXOTH:
            return str(current)
    return None


def hidden_paths(paths: list[str]) -> list[str]:
    """The paths among ``paths`` that an unprivileged user could not reach."""
    return [p for p in paths if blocking_ancestor(p)]


def enter_private_mount_namespace() -> None:
    linux.unshare(linux.CLONE_NEWNS)
    linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)


def expose_to_unprivileged(paths: list[str]) -> None:
    """(child, root, in its private mount namespace) Mask each blocking ancestor with an empty tmpfs and bind
    back only ``paths`` under it, so that e.g. /root/.pyenv is reachable and the rest of /root is not."""
    fds = {p: os.open(p, os.O_PATH | os.O_DIRECTORY) for p in paths}
    for ancestor in sorted({blocking_ancestor(p) for p in paths}, key=len):
        linux.mount("tmpfs", ancestor, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, "mode=0755,size=64k")
    for path, fd in fds.items():
        os.makedirs(path, mode=0o755, exist_ok=True)
        linux.mount(f"/proc/self/fd/{fd}", path, None, linux.MS_BIND | linux.MS_REC)
        os.close(fd)


def search_path() -> str:
    """PATH inside a sandbox: the running Python's bin folder first (a virtual environment's, when it runs in one),
    then its base installation's, then the system folders."""
    bins = dict.fromkeys(os.path.join(os.path.realpath(p), "bin") for p in (sys.prefix, sys.base_prefix))
    return ":".join([*bins, "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"])
