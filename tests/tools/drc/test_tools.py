import pytest

from benchmarks.drc.geometry import Block, compose
from sandboxes.errors import UserError
from tools.drc.tools import make_drc_tools
from tools.hostpaths import HostPaths

DECK = 'source($input)\nreport("t", $output)\ninput(68, 20).width(0.14.um).output("m1.1", "w")\n'


def test_run_deck_and_render_tools(tmp_path, drc_runner):
    path = tmp_path / "a.gds"
    path.write_bytes(compose([Block(note="n").add_box("met1", 0, 0, 100, 1000)], {"met1": (68, 20)}))
    run_deck, render = make_drc_tools(drc_runner, HostPaths(tmp_path))
    assert run_deck.sandboxed and "deck" in run_deck.openai_schema()["function"]["parameters"]["properties"]
    result = run_deck(deck=DECK, layouts=[str(path)])
    assert result[str(path)]["violations"] == {"m1.1": 1}
    assert "box (0,0)-(0.1,1)" in render(layout=str(path), png=str(tmp_path / "a.png"))
    assert (tmp_path / "a.png").is_file()
    with pytest.raises(UserError, match="cannot read layout"):
        render(layout=str(tmp_path / "missing.gds"))


def test_layouts_and_pictures_outside_the_work_directory_are_refused_alike(tmp_path, drc_runner):
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.gds").write_bytes(compose([Block(note="n").add_box("met1", 0, 0, 100, 1000)], {"met1": (68, 20)}))
    (tmp_path / "secret.gds").write_bytes(b"private")
    run_deck, render = make_drc_tools(drc_runner, HostPaths(work))
    refusals = []
    for outside in (str(tmp_path / "secret.gds"), str(tmp_path / "missing.gds"), "../secret.gds", "/etc/passwd"):
        with pytest.raises(UserError, match="may only read files under") as refused:
            run_deck(deck=DECK, layouts=[outside])
        refusals.append(str(refused.value).removeprefix(outside))
    assert len(set(refusals)) == 1  # the same words whether the file exists or not
    with pytest.raises(UserError, match="may only write files inside"):
        render(layout="a.gds", png=str(tmp_path / "out.png"))
    assert not (tmp_path / "out.png").exists()
