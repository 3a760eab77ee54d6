"""The offline lifter: features from names, signatures and docstrings; hierarchy from package layout.

It is the encoder's no-model policy and is named as such in every report
(``"offline lifter: names, signatures, docstrings; hierarchy from package layout"``).
"""

from __future__ import annotations

import re

from memory.rpg.graph import ROOT_ID, RPG, EdgeKind, Node, NodeKind

POLICY = "offline lifter: names, signatures, docstrings; hierarchy from package layout"
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_VERBS = frozenset("""add apply build call check clean clear close compile compute convert copy count create
decode delete emit encode ensure evaluate execute export extract fetch filter find format generate get handle
init initialize insert is has join load log make merge normalize open parse patch process put read register
remove render replace reset resolve run save scan search select send serialize set setup sort split start stop
store test to update validate visit wait walk wrap write""".split())
TOP_LEVEL_AREA = "(top level)"


def words(identifier: str) -> list[str]:
    """``parse_HTTPHeader`` → ``["parse", "http", "header"]``."""
    return [part.lower() for chunk in identifier.strip("_").split("_") for part in _CAMEL.findall(chunk)]


def name_phrase(node: Node) -> str:
    """A verb + object phrase from a unit's name."""
    parts = words(node.name)
    if not parts:
        return node.name
    if node.kind is NodeKind.CLASS:
        return "define " + " ".join(parts)
    if node.name.startswith("__") and node.name.endswith("__"):
        return f"implement {node.name} protocol"
    phrase = " ".join(parts) if parts[0] in _VERBS else "handle " + " ".join(parts)
    if node.kind is NodeKind.METHOD:
        owner = node.id.rsplit(":", 1)[-1].rsplit(".", 2)[-2]
        phrase += " of " + " ".join(words(owner))
    return phrase


def doc_phrase(docstring: str) -> str:
    first = re.split(r"(?<=[.!?])\s", docstring.strip(), maxsplit=1)[0].rstrip(".")
    return " ".join(first.split()[:16]).lower()


class OfflineLifter:
    """Deterministic lifting without a model."""

    name = "offline"
    policy = POLICY

    def lift_units(self, rpg: RPG, unit_ids: list[str]) -> None:
        for unit_id in unit_ids:
            node = rpg.node(unit_id)
            features = [name_phrase(node)]
            if node.docstring and doc_phrase(node.docstring) not in features:
                features.append(doc_phrase(node.docstring))
            node.features = features

    def summarise_files(self, rpg: RPG, file_ids: list[str]) -> None:
        for file_id in file_ids:
            node = rpg.node(file_id)
            tops = [rpg.node(c).name for c in rpg.children(file_id)]
            defines = "defines " + ", ".join(tops[:6]) + (" …" if len(tops) > 6 else "") if tops else "module script"
            node.summary = doc_phrase(node.docstring) if node.docstring else defines
            node.features = [node.summary]

    def place_files(self, rpg: RPG, file_ids: list[str]) -> None:
        for file_id in file_ids:
            attach(rpg, file_id, layout_path(file_id))


def layout_path(path: str) -> list[str]:
    """Area, category and subcategory names from the directories of ``path``."""
    dirs = path.split("/")[:-1]
    if not dirs:
        return [TOP_LEVEL_AREA]
    return [dirs[0]] + dirs[1:2] + (["/".join(dirs[2:])] if len(dirs) > 2 else [])


HIERARCHY = (NodeKind.AREA, NodeKind.CATEGORY, NodeKind.SUBCATEGORY)


def attach(rpg: RPG, file_id: str, names: list[str]) -> None:
    """Place a file under area / category / subcategory ``names`` (created on demand)."""
    old_parent = rpg.parent(file_id)
    if old_parent:
        rpg.unlink(old_parent, file_id, EdgeKind.CONTAINS)
    parent = ROOT_ID
    for kind, name in zip(HIERARCHY, names[:3]):
        node_id = f"{kind.value}:{name}" if kind is NodeKind.AREA else f"{kind.value}:{parent.split(':', 1)[1]}/{name}"
        if node_id not in rpg:
            rpg.add(Node(node_id, kind, name, features=[name]))
            rpg.link(parent, node_id, EdgeKind.CONTAINS)
        parent = node_id
    rpg.link(parent, file_id, EdgeKind.CONTAINS)
