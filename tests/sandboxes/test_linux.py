"""Process-level limits every job gets (:func:`sandboxes.linux.limit_job`), on both backends."""

from tests.sandboxes.conftest import SMALL

LIMITS = "import resource as r; print(*(r.getrlimit(getattr(r, f'RLIMIT_{n}')) for n in ('CORE', 'RTPRIO', 'NICE')))"


def test_a_job_gets_no_core_dumps_real_time_scheduling_or_raised_priority(any_sandbox):
    result = any_sandbox.run(["python", "-c", LIMITS], limits=SMALL)
    assert result.stdout.split() == ["(0,", "0)"] * 3, result.stdout + result.stderr
