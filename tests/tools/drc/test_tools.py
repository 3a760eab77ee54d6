import pytest

from benchmarks.drc.geometry import Block, compose
from sandboxes.errors import UserError
from tools.drc.tools import make_drc_tools

DECK = 'source($input)\nreport("t", $output)\ninput(68, 20).width(0.14.um).output("m1.1", "w")\n'


def test_run_deck_and_render_tools(tmp_path, drc_runner):
    path = tmp_path / "a.gds"
    path.write_bytes(compose([Block(note="n").add_box("met1", 0, 0, 100, 1000)], {"met1": (68, 20)}))
    run_deck, render = make_drc_tools(drc_runner)
    assert run_deck.executes_code and "deck" in run_deck.openai_schema()["function"]["parameters"]["properties"]
    result = run_deck(deck=DECK, layouts=[str(path)])
    assert result[str(path)]["violations"] == {"m1.1": 1}
    assert "box (0,0)-(0.1,1)" in render(layout=str(path), png=str(tmp_path / "a.png"))
    assert (tmp_path / "a.png").is_file()
    with pytest.raises(UserError, match="cannot read layout"):
        render(layout=str(tmp_path / "missing.gds"))
