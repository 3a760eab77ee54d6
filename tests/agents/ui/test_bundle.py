"""Joining a page's ES modules into one script (`agents.ui.bundle`): every page's modules, each in its own scope,
in dependency order; forms it cannot join faithfully are refused."""

from __future__ import annotations

import pytest

from agents.ui.bundle import JS, REGISTRY, BundleError, dependency_order, join

CLASHING = {
    "sizes.js": 'const SIZE = 1;\nexport function size() { return SIZE; }\nexport const NAME = "sizes";\n',
    "page.js": 'import { size, NAME as name } from "./sizes.js";\nconst SIZE = 2;\n'
               "window.joined = [size(), SIZE, name];\n",
}


def write(folder, files: dict[str, str]):
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_each_page_gets_all_its_modules_after_what_they_import():
    order = dependency_order("run.js", JS)
    assert order[-1] == "run.js" and order.index("common.js") < order.index("actions.js")
    assert order.index("charts.js") < order.index("dag.js") < order.index("pathwise.js") < order.index("panels.js")
    assert dependency_order("runs.js", JS) == ["common.js", "runs.js"]
    for entry in ("runs.js", "run.js", "compare.js"):
        text = join(entry).text
        assert not [line for line in text.splitlines() if line.startswith(("import ", "export "))]


def test_modules_keep_their_own_names_in_the_joined_script(tmp_path, page):
    """Both modules declare SIZE; the joined script runs in Chromium with each seeing its own."""
    bundle = join("page.js", write(tmp_path, CLASHING))
    page.set_content("<!doctype html><title>t</title>")
    page.add_script_tag(content=bundle.text, type="module")
    page.wait_for_function("window.joined !== undefined")
    assert page.evaluate("window.joined") == [1, 2, "sizes"]
    assert join("page.js", tmp_path).etag == bundle.etag


@pytest.mark.parametrize("files, said", [
    ({"page.js": 'export default function main() {}\n'}, "does not know"),
    ({"page.js": 'import {\n  a,\n} from "./a.js";\n'}, "does not know"),
    ({"page.js": 'import { a } from "./a.js";\n', "a.js": 'import { b } from "./page.js";\nexport const a = 1;\n'},
     "import cycle"),
    ({"page.js": 'import { a } from "./missing.js";\n'}, "missing.js, which is not in"),
    ({"page.js": f"const {REGISTRY} = 1;\n"}, "own name"),
])
def test_what_it_cannot_join_faithfully_is_refused(tmp_path, files, said):
    with pytest.raises(BundleError, match=said):
        join("page.js", write(tmp_path, files))
