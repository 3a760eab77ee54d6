"""The unshare fallback's file system view, built by root in the child's private mount namespace: what bubblewrap
gives, a new root holding only the folders a run may see.

Before, the fallback made the whole host read-only but left it visible, so a job could read every world-readable
file (the project's checkout and ``.git``, other users' homes, run directories, ``/dev/kmsg``) and open host
devices; now it sees the system folders, the Python installation and the paths it asked for, read-only and
``nosuid``, a minimal ``/dev``, a size-capped private ``/tmp`` and ``/dev/shm``, and its work dir.
"""

from __future__ import annotations

import os
import stat

from sandboxes import hostfs, linux

NEW_ROOT = "/tmp"
"""Where the new root's tmpfs is mounted while it is built (any existing folder of the private namespace would do;
the sources are held open first, so hiding them under it does not matter)."""
BASIC_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
DEV_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
             "stderr": "/proc/self/fd/2"}
WRITABLE = ("/tmp", "/dev/shm", "/proc")
SCRATCH_FLAGS = linux.MS_NOSUID | linux.MS_NODEV


def private_view(workdir: str, tmp_mb: int, keep: list[str], devices: list[str] | tuple[str, ...] = ()) -> None:
    """(child, root, in its private mount namespace) Pivot into a new root that holds only ``keep`` (outermost
    first, read-only), the merged-/usr links, a minimal ``/dev`` plus ``devices`` (accelerators), ``/proc``, a
    private ``/tmp`` and ``/dev/shm`` of ``tmp_mb`` MiB each, and ``workdir``, the only writable host folder."""
    nodes = [d for d in (*BASIC_DEVICES, *devices) if os.path.exists(d)]
    sources = {path: os.open(path, os.O_PATH) for path in [*keep, *nodes, workdir]}
    try:
        linux.mount("tmpfs", NEW_ROOT, "tmpfs", SCRATCH_FLAGS, "size=1m,mode=0755")
        _scratch(tmp_mb)
        for path in [*keep, *nodes, workdir]:
            _bind(sources[path], path, recursive=path != workdir)
        _links()
        os.makedirs(NEW_ROOT + "/proc", mode=0o555)
        # where no pid namespace hides the host's processes (no unshare), hidepid=2 shows the run only its own
        linux.mount("proc", NEW_ROOT + "/proc", "proc", SCRATCH_FLAGS | linux.MS_NOEXEC, "hidepid=2")
    finally:
        for fd in sources.values():
            os.close(fd)
    os.chdir(NEW_ROOT)
    linux.pivot_root(".", ".")
    linux.umount(".")  # the old root, stacked on top of the new one by pivot_root(".", ".")
    linux.set_mount_attrs("/", read_only=True, recursive=True)
    for writable in (*WRITABLE, workdir):
        linux.set_mount_attrs(writable, read_only=False, recursive=False)
    os.chdir(workdir)


def _scratch(tmp_mb: int) -> None:
    """The new root's private /tmp, and a /dev tmpfs holding a private /dev/shm, each capped at ``tmp_mb``."""
    for folder, size in (("/tmp", tmp_mb), ("/dev", 1), ("/dev/shm", tmp_mb)):
        os.makedirs(NEW_ROOT + folder, mode=0o755)
        mode = "1777" if folder != "/dev" else "0755"
        linux.mount("tmpfs", NEW_ROOT + folder, "tmpfs", SCRATCH_FLAGS, f"size={size}m,mode={mode}")


def _bind(fd: int, path: str, recursive: bool) -> None:
    """Bind the object open as ``fd`` at ``path`` inside the new root (creating an empty folder or file there)."""
    target = NEW_ROOT + path
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        os.makedirs(target, mode=0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        with open(target, "a"):
            pass
    linux.mount(f"/proc/self/fd/{fd}", target, None, linux.MS_BIND | (linux.MS_REC if recursive else 0))


def _links() -> None:
    """/bin, /lib and friends as on the host (links into /usr, or bound folders), and /dev's standard links."""
    for path, target in hostfs.merged_usr_links():
        if target:
            os.symlink(target, NEW_ROOT + path)
        else:
            fd = os.open(path, os.O_PATH)
            try:
                _bind(fd, path, recursive=True)
            finally:
                os.close(fd)
    for name, target in DEV_LINKS.items():
        os.symlink(target, f"{NEW_ROOT}/dev/{name}")
