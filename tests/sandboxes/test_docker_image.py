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
