"""The speedup plot."""

from benchmarks.kernels.plot import speedup_plot
from benchmarks.kernels.verifier.result import KernelResult, Status


def test_plot_written_only_when_something_was_timed(tmp_path):
    timed = [KernelResult("a", Status.CORRECT, runtime_ms=1.0, reference_ms=2.0),
             KernelResult("b", Status.CORRECT, runtime_ms=2.0, reference_ms=1.0),
             KernelResult("c", Status.INCORRECT)]
    path = speedup_plot(timed, ["a", "b", "c"], tmp_path / "speedup.png", "title")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert speedup_plot(timed[2:], ["c"], tmp_path / "none.png", "title") is None
