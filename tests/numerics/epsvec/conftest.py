from tests.numerics.fixture.conftest import single_thread  # noqa: F401  (autouse: one torch thread here too)
