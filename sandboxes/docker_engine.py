"""Connection to the local Docker engine, shared by the docker backend's modules."""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=1)
def client():
    """A docker SDK client for the local engine (raises when it does not answer)."""
    import docker

    engine = docker.from_env(timeout=120)
    engine.ping()
    return engine


def engine_problem() -> str | None:
    """None when the engine answers, else a one-line reason."""
    try:
        import docker  # noqa: F401
    except ImportError:
        return "the docker Python SDK is not installed (pip install docker)"
    try:
        client()
    except Exception as error:  # the SDK raises several unrelated types for "no engine"
        client.cache_clear()
        return f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else 'no answer'}"
    return None


@functools.lru_cache(maxsize=1)
def container_cgroup_parent() -> str | None:
    """Where containers' cgroups go: the root with the cgroupfs driver, so that each container competes for
    CPU like one host process would (under the default ``/docker`` group all containers share one weight,
    which on a busy host made the same job about 2x slower than bare). None keeps the engine's default."""
    return "/" if client().info().get("CgroupDriver") == "cgroupfs" else None
