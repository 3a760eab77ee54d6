import pytest

from tools.drc.lyrdb import ReportParseError, parse_lyrdb

REPORT = """<?xml version="1.0" encoding="utf-8"?>
<report-database>
 <categories>
  <category><name>m1.1</name><categories></categories></category>
  <category><name>m1.2</name><categories>
    <category><name>inner</name><categories></categories></category></categories></category>
 </categories>
 <items>
  <item><category>'m1.1'</category><cell>TOP</cell><multiplicity>1</multiplicity></item>
  <item><category>'m1.1'</category><cell>TOP</cell><multiplicity>2</multiplicity></item>
  <item><category>'m1.2'.'inner'</category><cell>TOP</cell></item>
  <item><category>'odd.name'</category><cell>TOP</cell></item>
 </items>
</report-database>
"""


def test_counts_per_category_with_multiplicity_and_nesting():
    report = parse_lyrdb(REPORT)
    assert report.counts == {"m1.1": 3, "m1.2.inner": 1, "odd.name": 1}
    assert report.declared == ["m1.1", "m1.2", "m1.2.inner"]


def test_unknown_categories_are_those_outside_the_allowed_set():
    report = parse_lyrdb(REPORT)
    assert report.unknown({"m1.1", "m1.2"}) == {"m1.2.inner", "odd.name"}


@pytest.mark.parametrize("text", ["not xml <", "<other/>"])
def test_bad_reports_raise(text):
    with pytest.raises(ReportParseError):
        parse_lyrdb(text)
