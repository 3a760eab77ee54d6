"""The docker backend's base image: a tiny root filesystem made here and loaded with ``docker import``.

No registry is needed. Toolchains are not in the image: the host's /usr (and /lib, /bin, ... when they are
real directories) and the Python installation are mounted read-only at run time, see :func:`host_mounts`.
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile

from sandboxes import hostfs

REPOSITORY = "agentkiln/sandbox-base"
SANDBOX_UID = 10001
RUNNER_DIR = "/opt/agentkiln"
ETC_COPIED = ("/etc/ld.so.cache", "/etc/ld.so.conf")
ETC_DIRS_COPIED = ("/etc/ld.so.conf.d", "/etc/alternatives")


def _etc_files() -> dict[str, bytes]:
    return {
        "etc/passwd": (f"root:x:0:0:root:/root:/bin/sh\nsandbox:x:{SANDBOX_UID}:{SANDBOX_UID}:sandbox:/work:/bin/sh\n"
                       "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n").encode(),
        "etc/group": f"root:x:0:\nsandbox:x:{SANDBOX_UID}:\nnogroup:x:65534:\n".encode(),
        "etc/hosts": b"127.0.0.1 localhost\n::1 localhost\n",
        "etc/nsswitch.conf": b"passwd: files\ngroup: files\nhosts: files\n",
        "etc/resolv.conf": b"",
    }


class _Entries:
    """The archive's members by path: a path named again replaces the earlier entry in place, so the tar never
    lists a path twice (``docker import`` refuses duplicates, e.g. ``tmp`` as the scratch dir and as the parent
    of a venv under /tmp), and parents keep coming before their children."""

    def __init__(self) -> None:
        self.members: dict[str, tuple[tarfile.TarInfo, bytes | None]] = {}

    def add(self, name: str, *, data: bytes | None = None, link: str | None = None, mode: int = 0o755,
            uid: int = 0) -> None:
        info = tarfile.TarInfo(name)
        info.mtime, info.uid, info.gid, info.mode = 0, uid, uid, mode
        if link is not None:
            info.type, info.linkname = tarfile.SYMTYPE, link
        elif data is None:
            info.type = tarfile.DIRTYPE
        else:
            info.size = len(data)
        self.members[name] = (info, data)

    def write(self, tar: tarfile.TarFile) -> None:
        for info, data in self.members.values():
            tar.addfile(info, io.BytesIO(data) if data is not None else None)


def _mount_points() -> list[str]:
    """Every folder the container mounts something on, each after its parents."""
    points = []
    for path in ["/usr", "/proc", "/sys", "/dev", "/etc", "/root", RUNNER_DIR, *hostfs.python_dirs()]:
        parts = path.strip("/").split("/")
        points += ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return points


def rootfs_tar() -> bytes:
    """The image's whole file system as a tar archive (deterministic, so its hash names the image)."""
    entries = _Entries()
    for point in _mount_points():
        entries.add(point)
    for path, target in hostfs.merged_usr_links():
        entries.add(path.lstrip("/"), link=target)  # a real directory (target None) is an empty mount point
    entries.add("tmp", mode=0o1777)
    entries.add("work", uid=SANDBOX_UID)
    for name, data in _etc_files().items():
        entries.add(name, data=data, mode=0o644)
    _copy_host_etc(entries)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        entries.write(tar)
    return buffer.getvalue()


def _copy_host_etc(entries: _Entries) -> None:
    """Copy the dynamic-linker configuration and /etc/alternatives links so host binaries resolve."""
    for path in ETC_COPIED:
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                entries.add(path.lstrip("/"), data=handle.read(), mode=0o644)
    for folder in ETC_DIRS_COPIED:
        if not os.path.isdir(folder):
            continue
        entries.add(folder.lstrip("/"))
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.islink(path):
                entries.add(path.lstrip("/"), link=os.readlink(path))
            elif os.path.isfile(path):
                with open(path, "rb") as handle:
                    entries.add(path.lstrip("/"), data=handle.read(), mode=0o644)


def ensure_image(client) -> str:
    """Import the base image unless an identical one exists; return its tag."""
    data = rootfs_tar()
    tag = f"{REPOSITORY}:{hashlib.sha256(data).hexdigest()[:12]}"
    if not client.images.list(name=tag):
        client.api.import_image_from_data(data, repository=REPOSITORY, tag=tag.split(":")[1])
    return tag


def host_mounts(extra_ro_paths: list[str], toolchains: bool = True) -> dict[str, dict[str, str]]:
    """Read-only bind mounts: host toolchains and Python (unless the image has its own), extras, the runner."""
    system = ["/usr", *(p for p, target in hostfs.merged_usr_links() if not target), *hostfs.python_dirs()]
    paths = [*(system if toolchains else []), *(os.path.realpath(p) for p in extra_ro_paths)]
    mounts = {path: {"bind": path, "mode": "ro"} for path in paths if os.path.exists(path)}
    package_dir = os.path.dirname(os.path.abspath(__file__))
    mounts[package_dir] = {"bind": f"{RUNNER_DIR}/sandboxes", "mode": "ro"}
    return mounts
