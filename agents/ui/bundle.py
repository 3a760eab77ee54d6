"""The pages' JavaScript joined into one script per page.

A page's entry module (``static/js/runs.js``, ``run.js``, ``compare.js``) and every module it imports are
wrapped, each in a function scope of its own, in dependency order, into one text: a page then loads one script
instead of a chain of module requests (the run page's chain was four requests deep). The modules are the
package's own; this joiner understands only the two forms they use (``import { a, b } from "./x.js";`` on one
line, and ``export`` before a function, class or const) and refuses anything else, so that a module written
another way fails loudly here instead of misbehaving in the browser.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

JS = Path(__file__).resolve().parent / "static" / "js"
REGISTRY = "__agentkilnModules"
"""The one global-looking name the joined script declares (module-scoped: the script is a module too)."""
IMPORT = re.compile(r'^import \{([^}\n]*)\} from "\./([\w-]+\.js)";[ \t]*$', re.M)
EXPORT = re.compile(r"^export ((?:async )?function\*? |class |const |let )([A-Za-z_$][\w$]*)", re.M)
MODULE_LINE = re.compile(r"^[ \t]*(?:import|export)\b.*$", re.M)


class BundleError(ValueError):
    """A module the joiner cannot join faithfully (an import or export form it does not know, a cycle)."""


@dataclass(frozen=True)
class Bundle:
    """One page's joined script and its entity tag (a hash of the text)."""

    entry: str
    text: str
    etag: str


def join(entry: str, folder: Path = JS) -> Bundle:
    """``entry`` (a file name in ``folder``) and the modules it imports, joined into one script."""
    order = dependency_order(entry, folder)
    parts = [f"// {entry} and what it imports, joined by agents/ui/bundle.py: {', '.join(order)}",
             f"const {REGISTRY} = Object.create(null);"]
    parts += [wrap(name, (folder / name).read_text()) for name in order]
    text = "\n".join(parts) + "\n"
    return Bundle(entry, text, '"' + hashlib.sha256(text.encode()).hexdigest()[:20] + '"')


def dependency_order(entry: str, folder: Path) -> list[str]:
    """Every module ``entry`` needs, each after the modules it imports (a cycle is refused)."""
    order: list[str] = []
    visiting: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        if name in visiting:
            raise BundleError(f"import cycle: {' -> '.join(visiting + [name])}")
        path = folder / name
        if not path.is_file():
            raise BundleError(f"{visiting[-1] if visiting else 'the page'} imports {name}, which is not in {folder}")
        visiting.append(name)
        for _names, imported in imports(path.read_text()):
            visit(imported)
        visiting.pop()
        order.append(name)

    visit(entry)
    return order


def imports(source: str) -> list[tuple[list[str], str]]:
    """The module's imports: (names, module file) for each ``import { ... } from "./file.js";`` line."""
    return [([part.strip() for part in names.split(",") if part.strip()], module)
            for names, module in IMPORT.findall(source)]


def wrap(name: str, source: str) -> str:
    """The module as a function scope that takes its imports from the registry and returns its exports."""
    if REGISTRY in source:
        raise BundleError(f"{name} uses the joiner's own name {REGISTRY}")
    strange = [line.strip() for line in MODULE_LINE.findall(source)
               if not IMPORT.fullmatch(line) and not EXPORT.match(line)]
    if strange:
        raise BundleError(f"{name}: a module line the joiner does not know: {strange[0]!r}")
    exported = [match[1] for match in EXPORT.findall(source)]
    body = IMPORT.sub(lambda match: _binding(match[1], match[2]), source)
    body = EXPORT.sub(lambda match: match[1] + match[2], body)
    return (f"{REGISTRY}[{name!r}] = (() => {{\n{body.rstrip()}\n"
            f"return {{ {', '.join(exported)} }};\n}})();  // end of {name}")


def _binding(names: str, module: str) -> str:
    """``const { a, b: c } = registry["x.js"];`` for ``import { a, b as c } from "./x.js";``."""
    parts = [part.strip().replace(" as ", ": ") for part in names.split(",") if part.strip()]
    return f"const {{ {', '.join(parts)} }} = {REGISTRY}[{module!r}];"
