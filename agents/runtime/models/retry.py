"""Retries with exponential backoff for transient model-call failures (rate limits, timeouts, 5xx)."""

from __future__ import annotations

import random
import sys
import time
from typing import Callable, TypeVar

from sandboxes.telemetry import emit

T = TypeVar("T")

TRANSIENT_STATUS = {408, 409, 425, 429}


def is_transient(error: BaseException) -> bool:
    """Rate limits, timeouts, connection drops and server-side (5xx) errors are worth retrying."""
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and (status in TRANSIENT_STATUS or status >= 500):
        return True
    names = {cls.__name__ for cls in type(error).__mro__}
    return bool(names & {"Timeout", "APITimeoutError", "APIConnectionError", "RateLimitError",
                         "ServiceUnavailableError", "InternalServerError", "BadGatewayError"})


def backoff_delay(attempt: int, base_s: float, max_s: float) -> float:
    """Full-jitter exponential backoff for retry number ``attempt`` (1, 2, ...)."""
    return random.uniform(0.5, 1.0) * min(max_s, base_s * 2 ** (attempt - 1))


def call_with_retries(call: Callable[[], T], *, retries: int, base_s: float, max_s: float, label: str) -> T:
    """Run ``call``; on a transient error wait and try again, at most ``retries`` more times."""
    attempt = 0
    while True:
        try:
            return call()
        except Exception as error:
            attempt += 1
            if attempt > retries or not is_transient(error):
                raise
            delay = backoff_delay(attempt, base_s, max_s)
            reason = f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"
            emit("model.retry", model=label, attempt=attempt, delay_s=round(delay, 3), error=reason)
            print(f"model {label}: {reason[:120]}; retry {attempt} of {retries} in {delay:.1f} s", file=sys.stderr,
                  flush=True)
            time.sleep(delay)
