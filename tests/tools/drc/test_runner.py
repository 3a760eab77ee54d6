import klayout.db as db
import pytest

from benchmarks.drc.geometry import _gds_bytes
from sandboxes.base import RunResult
from sandboxes.errors import UserError
from tools.drc.runner import DrcRunner, DrcRunnerConfig

DECK = """source($input)
report("t", $output)
met1 = input(68, 20)
met1.width(0.14.um).output("m1.1", "width")
met1.space(0.14.um).output("m1.2", "space")
"""


def layout(*boxes) -> bytes:
    lay = db.Layout()
    lay.dbu = 0.001
    top = lay.create_cell("TOP")
    for box in boxes:
        top.shapes(lay.layer(68, 20)).insert(db.Box(*box))
    return _gds_bytes(lay)


NARROW = layout((0, 0, 100, 1000))
CLEAN = layout((0, 0, 200, 1000), (400, 0, 600, 1000))
CLOSE = layout((0, 0, 200, 1000), (300, 0, 500, 1000))


def test_one_batch_many_decks_errors_timeouts_and_containment_per_job(drc_runner, tmp_path):
    broken = DECK.replace(".space(", ".spaec(")
    looping = "source($input)\nreport('t', $output)\nloop { }\n"
    no_report = "source($input)\ninput(68, 20).width(0.14.um)\n"
    target = tmp_path / "escaped.txt"
    writer = f'File.write("{target}", "x")\n' + DECK
    hog = 'source($input)\nreport("t", $output)\nblob = "a" * (1 << 31)\n'
    jobs = [(DECK, NARROW), (DECK, CLEAN), (broken, CLOSE), (looping, CLEAN), (looping, NARROW),
            (no_report, CLEAN), (DECK, CLOSE), (writer, CLEAN), (hog, CLEAN)]
    before = drc_runner.stats.processes
    verdicts = drc_runner.evaluate(jobs)
    assert drc_runner.stats.processes == before + 1
    assert verdicts[0].ok and verdicts[0].counts == {"m1.1": 1}
    assert verdicts[1].ok and verdicts[1].counts == {} and verdicts[1].declared == ["m1.1", "m1.2"]
    assert verdicts[2].status == "error" and "spaec" in verdicts[2].error
    assert verdicts[3].status == "timeout"
    assert verdicts[4].status == "timeout" and "earlier layout" in verdicts[4].error
    assert verdicts[5].status == "error" and "report" in verdicts[5].error
    assert verdicts[6].ok and verdicts[6].violated("m1.2") and not verdicts[6].violated("m1.1")
    assert verdicts[7].status == "error" and not target.exists()  # the sandbox hides host paths
    assert verdicts[8].status == "error" and "memory limit" in verdicts[8].error  # killed, nothing left to retry


def test_matrix_is_deck_by_layout(drc_runner):
    matrix = drc_runner.evaluate_matrix([DECK, DECK.replace("0.14", "0.25", 1)], [CLEAN, NARROW])
    assert [[v.violated("m1.1") for v in row] for row in matrix] == [[False, True], [True, True]]


class KillingSandbox:
    """Runs the real sandbox but reports the first batch as killed after its first job (a C++ hang)."""

    name = "killing"

    def __init__(self, inner):
        self.inner = inner
        self.calls = 0

    def run(self, argv, **kwargs):
        self.calls += 1
        result = self.inner.run(argv, **kwargs)
        if self.calls == 1:
            first = result.stdout.splitlines()[:1]
            return RunResult(137, "\n".join(first), "", timed_out=True, files=result.files)
        return result


def test_a_killed_batch_marks_the_running_job_and_retries_the_rest(drc_runner):
    sandbox = KillingSandbox(drc_runner.sandbox)
    verdicts = DrcRunner(sandbox).evaluate([(DECK, NARROW), (DECK, CLEAN), (DECK, CLOSE)])
    assert verdicts[0].ok
    assert verdicts[1].status == "timeout" and "wall-clock" in verdicts[1].error
    assert verdicts[2].ok and verdicts[2].violated("m1.2")
    assert sandbox.calls == 2


def test_missing_binary_is_a_user_error():
    from sandboxes.select import get_sandbox

    runner = DrcRunner(get_sandbox("local"), DrcRunnerConfig(klayout="klayout-not-installed"))
    with pytest.raises(UserError, match="apt-get install -y klayout"):
        runner.evaluate([(DECK, CLEAN)])



class BrokenKlayoutSandbox:
    """A sandbox where klayout exits at once without running anything (e.g. a missing library)."""

    name = "broken"

    def __init__(self):
        self.calls = 0

    def run(self, argv, **kwargs):
        self.calls += 1
        return RunResult(127, "", "klayout: error while loading shared libraries")


@pytest.mark.klayout  # the runner looks the binary up on the host before it runs it in the sandbox
def test_a_klayout_that_cannot_start_fails_every_job_once():
    sandbox = BrokenKlayoutSandbox()
    verdicts = DrcRunner(sandbox).evaluate([(DECK, NARROW), (DECK, CLEAN), (DECK, CLOSE)])
    assert sandbox.calls == 1
    assert all(v.status == "error" and "shared libraries" in v.error for v in verdicts)
