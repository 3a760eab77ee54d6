"""Sandbox-side harness: load candidate.py, run it on every instance of data.npz, write result.json.

Shipped into the sandbox with ``runner.py`` (the problem's loop), ``ahd_common.py`` and ``task.json``.
Only numpy is needed. The parent process verifies the returned solutions and computes the scores.
"""

import json
import math
import random
import sys
import time
import traceback

import numpy as np

import ahd_common


def load_candidate(function_name):
    with open("candidate.py") as handle:
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


def run(task):
    np.random.seed(0)
    random.seed(0)
    try:
        function = load_candidate(task["function_name"])
    except BaseException as error:  # noqa: BLE001 - any failure of foreign code is a result
        return failure("crash", error)
    import runner

    data = dict(np.load("data.npz"))
    options = task.get("options", {})
    start = time.perf_counter()
    try:
        solutions = runner.solve_all(function, data, **options)
    except ahd_common.InvalidReturn as error:
        return failure("invalid_return", error)
    except ahd_common.IllegalMove as error:
        return failure("illegal_solution", error)
    except MemoryError as error:
        return failure("memory", error)
    except BaseException as error:  # noqa: BLE001
        return failure("crash", error)
    return {"status": "ok", "solutions": solutions, "seconds": time.perf_counter() - start}


def main():
    with open("task.json") as handle:
        task = json.load(handle)
    result = run(task)
    with open("result.json", "w") as handle:
        json.dump(result, handle)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
