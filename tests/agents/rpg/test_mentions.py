"""Issue pointers resolved through the graph of the generated ``ledger`` repository."""

import pytest

from agents.rpg.build import build_rpg
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.mentions import MentionFinder, example_code, prose_names
from agents.rpg.source import read_commit
from benchmarks.repo.generated import build_generated
from tools.rpg.workspace import RPGWorkspace


@pytest.fixture(scope="module")
def finder(tmp_path_factory):
    repo, instances = build_generated(tmp_path_factory.mktemp("ledger"))
    commit = instances[0]["base_commit"]
    rpg, _ = build_rpg(read_commit(repo, commit), OfflineLifter(), commit=commit)
    return MentionFinder(RPGWorkspace(rpg, repo=repo))


ISSUE = '''Totals crash

```python
>>> from ledger.invoices import Invoice
>>> inv = Invoice("acme")
>>> inv.total()
Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/ledger/core/money.py", line 12, in round_amount
ValueError: bad
```
It happens after `Account.deposit(3)` too; see ledger/reports.py and `get_setting`.
'''


def test_example_code_keeps_what_parses():
    code = example_code(ISSUE)
    assert "from ledger.invoices import Invoice" in code and "inv.total()" in code and "Traceback" not in code
    assert "Account.deposit(3)" in code and "get_setting" in code


def test_prose_names_are_code_like_words():
    names = prose_names("Calling QuerySet.only() after select_related() fails in MyModel; the docs say so.")
    assert {"QuerySet.only", "select_related", "MyModel"} <= set(names) and "docs" not in names


def test_places_are_traceback_frames_and_paths(finder):
    places = finder.places(ISSUE)
    assert places["ledger/core/money.py"] == 1.0 and places["ledger/reports.py"] == 1.0
    assert places["ledger/core/money.py:round_amount"] > 0  # the frame's function
    assert not any(p.startswith("ledger/invoices.py") for p in places)  # used code is no place


def test_names_resolve_the_example_code_and_quoted_names(finder):
    names = finder.names(ISSUE)
    assert names["ledger/invoices.py:Invoice.total"] > 0  # inv = Invoice(...); inv.total()
    assert names["ledger/accounts.py:Account.deposit"] > 0  # Account.deposit does not resolve: matched by name
    assert names["ledger/core/events.py:get_setting"] > 0


def test_weights_follow_rarity_so_hubs_weigh_little(finder):
    assert finder.weight("log_event") < 0.2 < finder.weight("apply_tax") <= 1.0
    assert finder.names("the `log_event` hub")["ledger/core/events.py:log_event"] == finder.weight("log_event")
    assert finder.file_for("/home/me/src/ledger/core/events.py") == "ledger/core/events.py"
    assert finder.file_for("/elsewhere/other.py") is None


def test_the_innermost_frame_weighs_most(finder):
    issue = ('Traceback (most recent call last):\n  File "/app/ledger/reports.py", line 3, in render\n'
             '  File "/app/ledger/invoices.py", line 9, in total\n  File "/app/ledger/reports.py", line 5, in header\n'
             '  File "/app/ledger/core/money.py", line 12, in round_amount\nValueError: bad\n')
    places = finder.places(issue, frame_decay=0.5)
    assert places["ledger/core/money.py"] == 1.0  # where the error was raised
    assert places["ledger/reports.py"] == 0.5  # a file's innermost frame counts, not its outermost
    assert places["ledger/invoices.py"] == 0.25
    assert places["ledger/invoices.py:Invoice.total"] < places["ledger/core/money.py:round_amount"]
    assert set(finder.places(issue).values()) >= {1.0} and finder.places(issue)["ledger/invoices.py"] == 1.0
