import io
import tarfile

from sandboxes.docker_image import SANDBOX_UID, host_mounts, rootfs_tar
from sandboxes.hostfs import python_dirs


def test_rootfs_is_deterministic_and_minimal():
    data = rootfs_tar()
    assert data == rootfs_tar()
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert members["work"].uid == SANDBOX_UID
    assert "etc/passwd" in members and "etc/shadow" not in members
    assert all(m.isdir() or m.issym() or m.name.startswith("etc/") for m in members.values())


def test_toolchains_mount_read_only():
    mounts = host_mounts([])
    assert mounts["/usr"]["mode"] == "ro"
    assert all(mounts[p]["mode"] == "ro" for p in python_dirs())
    assert "/usr" not in host_mounts([], toolchains=False)


def test_no_path_is_listed_twice_wherever_the_python_installation_lives(monkeypatch):
    """docker import refuses duplicates: a venv under /tmp made the tar list ``tmp`` twice."""
    import sandboxes.docker_image as image

    for venv in ("/tmp/agentkiln-venv/env", "/work/venv", "/etc/py", "/usr/lib/venv", "/opt/agentkiln/v"):
        monkeypatch.setattr(image.hostfs, "python_dirs", lambda venv=venv: sorted({*python_dirs(), venv}))
        with tarfile.open(fileobj=io.BytesIO(rootfs_tar())) as tar:
            names = [m.name for m in tar.getmembers()]
            members = {m.name: m for m in tar.getmembers()}
        assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
        assert venv.lstrip("/") in members and members["tmp"].mode == 0o1777
        assert members["work"].uid == SANDBOX_UID
        assert all(names.index(n.rsplit("/", 1)[0]) < names.index(n) for n in names if "/" in n)
