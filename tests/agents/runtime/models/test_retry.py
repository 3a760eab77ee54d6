import pytest

from agents.runtime.models.retry import backoff_delay, call_with_retries, is_transient


class StatusError(Exception):
    def __init__(self, status_code):
        super().__init__(f"status {status_code}")
        self.status_code = status_code


class Timeout(Exception):
    pass


@pytest.mark.parametrize("error, transient", [(StatusError(429), True), (StatusError(502), True),
                                              (StatusError(400), False), (StatusError(401), False),
                                              (Timeout(), True), (ValueError(), False)])
def test_classification(error, transient):
    assert is_transient(error) is transient


def test_backoff_doubles_within_bounds():
    for attempt, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0), (10, 30.0)]:
        delay = backoff_delay(attempt, 1.0, 30.0)
        assert ceiling / 2 <= delay <= ceiling


def test_retries_only_transient_errors():
    outcomes = [StatusError(503), StatusError(429), "ok"]

    def call():
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    assert call_with_retries(call, retries=3, base_s=0.001, max_s=0.01, label="m") == "ok"
    with pytest.raises(ValueError):
        call_with_retries(lambda: (_ for _ in ()).throw(ValueError("no")), retries=3, base_s=0.001, max_s=0.01,
                          label="m")
