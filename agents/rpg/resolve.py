"""Turn raw facts (imports, dotted calls, base classes) into imports / invokes / inherits edges.

Names resolve through the module's own definitions, its imports (aliases and re-exports are
followed from module to module), star imports and sub-modules; ``self.``/``cls.`` and ``super()``
resolve through the enclosing class and its bases. Every (module, name) lookup made along the way,
found or not, is recorded on the file node as ``consults`` (``"module:name"``, ``"module:"`` for the
module itself) so that an incremental update knows exactly which files' edges a change can affect.
"""

from __future__ import annotations

from memory.rpg.graph import RPG, EdgeKind, NodeKind

MAX_DEPTH = 12
CALLABLE_KINDS = (NodeKind.CLASS, NodeKind.FUNCTION, NodeKind.METHOD)


class SymbolIndex:
    """Lookup tables derived from the graph: modules, top-level names, class members, imports."""

    def __init__(self, rpg: RPG):
        self.rpg = rpg
        self.modules: dict[str, str] = {}
        self.members: dict[str, dict[str, str]] = {}
        for node in sorted(rpg.nodes(NodeKind.FILE), key=lambda n: (len(n.path), n.path)):
            self.modules.setdefault(node.extra["module"], node.id)
        for node in rpg.nodes(NodeKind.FILE, NodeKind.CLASS):
            self.members[node.id] = {rpg.node(c).name: c for c in rpg.children(node.id)}
        self.imports = {n.id: {local: (module, symbol) for local, module, symbol in n.extra["imports"]}
                        for n in rpg.nodes(NodeKind.FILE)}


class Resolver:
    """Resolves the facts of some files against the whole graph and writes their edges."""

    def __init__(self, rpg: RPG):
        self.rpg = rpg
        self.index = SymbolIndex(rpg)

    def resolve_files(self, file_ids: list[str]) -> None:
        for file_id in sorted(file_ids):
            self.resolve_file(file_id)

    def resolve_file(self, file_id: str) -> None:
        rpg, file_node = self.rpg, self.rpg.node(file_id)
        units = rpg.descendants(file_id)
        rpg.drop_dependencies_from([file_id, *units])
        consulted: set[str] = set()
        for local, module, symbol in file_node.extra["imports"]:
            target = self._imported(module, symbol, [], consulted, 0)
            if target and target != file_id:
                rpg.link(file_id, target, EdgeKind.IMPORTS)
        self._link_calls(file_id, file_node.extra["calls"], None, consulted)
        for unit_id in units:
            unit = rpg.node(unit_id)
            owner_class = self._enclosing_class(unit_id)
            self._link_calls(unit_id, unit.extra.get("calls", []), owner_class, consulted)
            if unit.kind is NodeKind.CLASS:
                for base in self._bases(unit_id, consulted):
                    rpg.link(unit_id, base, EdgeKind.INHERITS)
        file_node.extra["consults"] = sorted(consulted)

    # -- name resolution ---------------------------------------------------------------------------
    def _link_calls(self, source: str, calls: list[str], owner_class: str | None, consulted: set[str]) -> None:
        file_id = self.rpg.node(source).path
        for call in calls:
            target = self.resolve_reference(file_id, call, owner_class, consulted)
            if target and target != source and self.rpg.node(target).kind in CALLABLE_KINDS:
                self.rpg.link(source, target, EdgeKind.INVOKES)

    def resolve_reference(self, file_id: str, name: str, owner_class: str | None, consulted: set[str]) -> str | None:
        """The node a dotted name used in ``file_id`` refers to, or ``None``."""
        head, *rest = name.split(".")
        if head in ("self", "cls") and owner_class and rest:
            return self._member_path(owner_class, rest, consulted, 0)
        if head == "super()" and owner_class and rest:
            for base in self._bases(owner_class, consulted):
                found = self._member_path(base, rest, consulted, 0)
                if found:
                    return found
            return None
        module = self.rpg.node(file_id).extra["module"]
        return self._in_module(module, [head, *rest], consulted, 0)

    def _in_module(self, module: str, parts: list[str], consulted: set[str], depth: int) -> str | None:
        consulted.add(f"{module}:{parts[0] if parts else ''}")
        file_id = self.index.modules.get(module)
        if file_id is None or depth > MAX_DEPTH:
            return None
        if not parts:
            return file_id
        head, rest = parts[0], parts[1:]
        member = self.index.members[file_id].get(head)
        if member:
            return self._descend(member, rest, consulted, depth)
        imported = self.index.imports[file_id].get(head)
        if imported:
            return self._imported(imported[0], imported[1], rest, consulted, depth + 1)
        submodule = f"{module}.{head}" if module else head
        if submodule in self.index.modules:
            return self._in_module(submodule, rest, consulted, depth + 1)
        for star in self.rpg.node(file_id).extra["stars"]:
            found = self._in_module(star, parts, consulted, depth + 1)
            if found:
                return found
        return None

    def _imported(self, module: str, symbol: str, rest: list[str], consulted: set[str], depth: int) -> str | None:
        return self._in_module(module, ([symbol] if symbol else []) + rest, consulted, depth)

    def _descend(self, node_id: str, rest: list[str], consulted: set[str], depth: int) -> str | None:
        if not rest:
            return node_id
        if self.rpg.node(node_id).kind is NodeKind.CLASS:
            return self._member_path(node_id, rest, consulted, depth)
        return None

    def _member_path(self, class_id: str, parts: list[str], consulted: set[str], depth: int) -> str | None:
        member = self._find_member(class_id, parts[0], consulted, depth, set())
        return self._descend(member, parts[1:], consulted, depth + 1) if member else None

    def _find_member(self, class_id: str, name: str, consulted: set[str], depth: int, seen: set[str]) -> str | None:
        if class_id in seen or depth > MAX_DEPTH:
            return None
        seen.add(class_id)
        found = self.index.members.get(class_id, {}).get(name)
        if found:
            return found
        for base in self._bases(class_id, consulted):
            found = self._find_member(base, name, consulted, depth + 1, seen)
            if found:
                return found
        return None

    def _bases(self, class_id: str, consulted: set[str]) -> list[str]:
        node = self.rpg.node(class_id)
        bases = []
        for base in node.extra.get("bases", []):
            target = self.resolve_reference(node.path, base, None, consulted)
            if target and target != class_id and self.rpg.node(target).kind is NodeKind.CLASS:
                bases.append(target)
        return bases

    def _enclosing_class(self, unit_id: str) -> str | None:
        parent = self.rpg.parent(unit_id)
        while parent and self.rpg.node(parent).kind is not NodeKind.FILE:
            if self.rpg.node(parent).kind is NodeKind.CLASS:
                return parent
            parent = self.rpg.parent(parent)
        return None


def bindings(rpg: RPG, file_id: str) -> dict[str, str]:
    """What each top-level name of a module resolves to, as comparable text (``*`` holds star imports).

    A class's text covers its members and bases all the way down, since lookups descend into them.
    """
    table: dict[str, str] = {}
    for child in rpg.children(file_id):
        node = rpg.node(child)
        table[node.name] = "|".join(_unit_text(rpg, c) for c in [child, *rpg.descendants(child)])
    file_node = rpg.node(file_id)
    for local, module, symbol in file_node.extra["imports"]:
        table.setdefault(local, f"import {module}:{symbol}")
    table["*"] = ",".join(file_node.extra["stars"])
    return table


def _unit_text(rpg: RPG, node_id: str) -> str:
    node = rpg.node(node_id)
    return f"{node.id}/{node.kind.value}/{','.join(node.extra.get('bases', []))}"
