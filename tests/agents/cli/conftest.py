import pytest


@pytest.fixture(autouse=True)
def _isolated(isolated_agent_env):
    """Every CLI test works in its own folder without ambient settings or keys."""
    return isolated_agent_env


@pytest.fixture
def modules_loaded_by():
    """``modules_loaded_by(statements, names)``: which of ``names`` a fresh interpreter has imported after
    running ``statements``."""
    import subprocess
    import sys

    def loaded(statements: str, names: tuple[str, ...]) -> list[str]:
        code = f"import sys\n{statements}\nprint(','.join(m for m in {names!r} if m in sys.modules))"
        output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        return [name for name in output.strip().split(",") if name]
    return loaded
