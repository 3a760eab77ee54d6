"""Sandbox-side harness: run each candidate of a batch on every instance of data.npz, write result.json.

Shipped into the sandbox with ``runner.py`` (the problem's loop), ``ahd_common.py``, ``task.json`` and
the candidates (``candidate_0.py``, ...). Only numpy is needed. numpy, the runner and the data are loaded
once; each candidate then runs in a forked child under its own limits (wall-clock alarm, CPU time and
address space), so a candidate cannot change another's state, and its crash, hang or memory blow-up is
its own failure only. ``result.json`` lists one result per candidate, in order; the parent process
verifies the solutions and computes the scores.
"""

import json
import math
import os
import random
import resource
import signal
import sys
import time
import traceback

import numpy as np

import ahd_common

TIMEOUT_SIGNALS = (signal.SIGALRM, signal.SIGXCPU)


def load_candidate(path, function_name):
    with open(path) as handle:
        source = handle.read()
    namespace = {"__name__": "candidate", "np": np, "numpy": np, "math": math, "random": random}
    exec(compile(source, "candidate.py", "exec"), namespace)
    function = namespace.get(function_name)
    if not callable(function):
        raise NameError(f"the code defines no function named {function_name}")
    return function


def failure(kind, error):
    trace = traceback.format_exception(type(error), error, error.__traceback__)
    return {"status": "failed", "kind": kind, "message": f"{type(error).__name__}: {error}",
            "traceback": "".join(trace[-4:])[-2000:]}


def run(path, task, data, runner):
    """One candidate on every instance: its solutions, or the failure and its traceback."""
    np.random.seed(0)
    random.seed(0)
    try:
        function = load_candidate(path, task["function_name"])
    except BaseException as error:  # noqa: BLE001 - any failure of foreign code is a result
        return failure("crash", error)
    start = time.perf_counter()
    try:
        solutions = runner.solve_all(function, data, **task.get("options", {}))
    except ahd_common.InvalidReturn as error:
        return failure("invalid_return", error)
    except ahd_common.IllegalMove as error:
        return failure("illegal_solution", error)
    except MemoryError as error:
        return failure("memory", error)
    except BaseException as error:  # noqa: BLE001
        return failure("crash", error)
    return {"status": "ok", "solutions": solutions, "seconds": time.perf_counter() - start}


def limit(wall_s, memory_mb):
    """This child's limits: SIGALRM after ``wall_s`` (its default action ends the process), SIGXCPU after as
    much CPU time, and an address space of ``memory_mb`` MiB (a bigger allocation raises MemoryError)."""
    signal.setitimer(signal.ITIMER_REAL, wall_s)
    seconds = math.ceil(wall_s)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))


def isolated(path, task, data, runner):
    """Run one candidate in a forked child and return its result (or why the child died without one)."""
    out = f"{path}.json"
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)  # its own process group: whatever it starts ends with it
            limit(task["wall_s"], task["memory_mb"])
            result = run(path, task, data, runner)
            with open(f"{out}.partial", "w") as handle:
                json.dump(result, handle)
            os.replace(f"{out}.partial", out)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:  # the group is gone already: nothing it started outlived it
        pass
    if os.path.exists(out):
        with open(out) as handle:
            return json.load(handle)
    return died(status, task["wall_s"])


def died(status, wall_s):
    """The result of a child that ended without writing one."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number in TIMEOUT_SIGNALS:
            return {"status": "failed", "kind": "timeout", "message": f"exceeded {wall_s:g} s", "traceback": ""}
        if number == signal.SIGKILL:
            return {"status": "failed", "kind": "memory", "message": "killed by SIGKILL (out of memory)",
                    "traceback": ""}
        return {"status": "failed", "kind": "crash", "message": f"killed by {signal.Signals(number).name}",
                "traceback": ""}
    return {"status": "failed", "kind": "crash", "traceback": "",
            "message": f"exited with code {os.WEXITSTATUS(status)} before writing its result"}


def main():
    with open("task.json") as handle:
        task = json.load(handle)
    import runner

    data = dict(np.load("data.npz"))
    results = [isolated(path, task, data, runner) for path in task["candidates"]]
    with open("result.json", "w") as handle:
        json.dump({"results": results}, handle)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
