"""Turn raw facts (imports, dotted calls, base classes, type facts) into imports / invokes / inherits edges.

Names resolve through the module's own definitions, its imports (aliases and re-exports are
followed from module to module), its typed variables, star imports and sub-modules; ``self.``/``cls.``
and ``super()`` resolve through the enclosing class and its bases. Plain type facts carry calls one
step further: ``x = Foo(); x.run()``, ``def f(x: Foo): x.run()``, ``self.attr.run()`` after
``self.attr = Foo()`` and ``proxy.run()`` for a module variable ``proxy: Foo = ...``. Every (module,
name) lookup made along the way, found or not, is recorded on the file node as ``consults``
(``"module:name"``, ``"module:"`` for the module itself, ``"class_id#name"`` for a name looked up on a
class: a member or a typed attribute) so that an incremental update knows exactly which files' edges a
change can affect.
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
        self.module_of: dict[str, str] = {}
        self.members: dict[str, dict[str, str]] = {}
        for node in sorted(rpg.nodes(NodeKind.FILE), key=lambda n: (len(n.path), n.path)):
            self.modules.setdefault(node.extra["module"], node.id)
        for node in rpg.nodes(NodeKind.FILE, NodeKind.CLASS):
            self.members[node.id] = {rpg.node(c).name: c for c in rpg.children(node.id)}
        self.imports, self.stars, self.variables = {}, {}, {}
        self.lookups: dict[tuple, tuple[str | None, frozenset[str]]] = {}
        """Memo of module lookups (answer and the lookups made on the way), valid while the tables stand."""
        for node in rpg.nodes(NodeKind.FILE):
            self.add_scope(node.id, node.extra["module"], node.extra["imports"], node.extra["stars"],
                           node.extra.get("variables", {}))

    def add_scope(self, file_id: str, module: str, imports: list, stars: list[str], variables: dict[str, str]) -> None:
        """Register a module's own bindings (also used for code outside the graph, such as an issue's)."""
        self.lookups.clear()
        self.modules.setdefault(module, file_id)
        self.module_of[file_id] = module
        self.members.setdefault(file_id, {})
        self.imports[file_id] = {local: (mod, symbol) for local, mod, symbol in imports}
        self.stars[file_id] = list(stars)
        self.variables[file_id] = dict(variables)


class Resolver:
    """Resolves the facts of some files against the whole graph and writes their edges."""

    def __init__(self, rpg: RPG, index: SymbolIndex | None = None):
        """``index``: the graph's current symbol tables, when they are at hand (else derived here)."""
        self.rpg = rpg
        self.index = index if index is not None else SymbolIndex(rpg)

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
            self._link_calls(unit_id, unit.extra.get("calls", []), unit_id, consulted)
            if unit.kind is NodeKind.CLASS:
                for base in self._bases(unit_id, consulted):
                    rpg.link(unit_id, base, EdgeKind.INHERITS)
        file_node.extra["consults"] = sorted(consulted)

    def resolve_names(self, file_id: str, names: list[str], consulted: set[str]) -> list[str]:
        """What each dotted name used at module level of ``file_id`` refers to (unresolved ones left out)."""
        found = (self.resolve_reference(file_id, name, None, consulted) for name in names)
        return list(dict.fromkeys(target for target in found if target))

    # -- name resolution ---------------------------------------------------------------------------
    def _link_calls(self, source: str, calls: list[str], unit_id: str | None, consulted: set[str]) -> None:
        file_id = self.rpg.node(source).path
        for call in calls:
            target = self.resolve_reference(file_id, call, unit_id, consulted)
            if target and target != source and self.rpg.node(target).kind in CALLABLE_KINDS:
                self.rpg.link(source, target, EdgeKind.INVOKES)

    def resolve_reference(self, file_id: str, name: str, unit_id: str | None, consulted: set[str]) -> str | None:
        """The node a dotted name used in ``file_id`` (inside ``unit_id``, if given) refers to, or ``None``."""
        head, *rest = name.split(".")
        owner_class = self._enclosing_class(unit_id) if unit_id else None
        if head in ("self", "cls") and owner_class and rest:
            return self._member_path(owner_class, rest, consulted, 0)
        if head == "super()" and owner_class and rest:
            for base in self._bases(owner_class, consulted):
                found = self._member_path(base, rest, consulted, 0)
                if found:
                    return found
            return None
        type_expr = head[:-2] if head.endswith("()") else self._local_type(unit_id, head)  # Foo().run, x.run
        if type_expr is not None:
            klass = self._class_named(file_id, type_expr, consulted, 0)
            return self._member_path(klass, rest, consulted, 1) if klass and rest else None
        return self._in_module(self.index.module_of[file_id], [head, *rest], consulted, 0)

    def _local_type(self, unit_id: str | None, name: str) -> str | None:
        """The type of a local name in ``unit_id`` or the functions around it (classes do not enclose)."""
        current = unit_id
        while current and self.rpg.node(current).kind in (NodeKind.FUNCTION, NodeKind.METHOD):
            found = self.rpg.node(current).extra.get("types", {}).get(name)
            if found:
                return found
            current = self.rpg.parent(current)
        return None

    def _class_named(self, file_id: str, expr: str, consulted: set[str], depth: int) -> str | None:
        target = self._in_module(self.index.module_of[file_id], expr.split("."), consulted, depth + 1)
        return target if target and self.rpg.node(target).kind is NodeKind.CLASS else None

    def _in_module(self, module: str, parts: list[str], consulted: set[str], depth: int) -> str | None:
        """``parts`` looked up in ``module``; memoised (star-import chains repeat the same lookups), with
        the lookups it made recorded in ``consulted`` whether it was answered afresh or from the memo."""
        key = (module, tuple(parts), depth)
        memo = self.index.lookups.get(key)
        if memo is None:
            made: set[str] = set()
            memo = self.index.lookups[key] = (self._lookup(module, parts, made, depth), frozenset(made))
        consulted |= memo[1]
        return memo[0]

    def _lookup(self, module: str, parts: list[str], consulted: set[str], depth: int) -> str | None:
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
        variable = self.index.variables[file_id].get(head)
        if variable:
            klass = self._class_named(file_id, variable, consulted, depth)
            return self._member_path(klass, rest, consulted, depth + 1) if klass and rest else None
        submodule = f"{module}.{head}" if module else head
        if submodule in self.index.modules:
            return self._in_module(submodule, rest, consulted, depth + 1)
        for star in self.index.stars[file_id]:
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
        """``parts`` looked up on a class: members (inherited too), then typed attributes."""
        member = self._find_member(class_id, parts[0], consulted, depth, set())
        if member:
            return self._descend(member, parts[1:], consulted, depth + 1)
        typed = self._attribute_class(class_id, parts[0], consulted, depth, set()) if len(parts) > 1 else None
        return self._member_path(typed, parts[1:], consulted, depth + 1) if typed else None

    def _find_member(self, class_id: str, name: str, consulted: set[str], depth: int, seen: set[str]) -> str | None:
        if class_id in seen or depth > MAX_DEPTH:
            return None
        seen.add(class_id)
        consulted.add(f"{class_id}#{name}")
        found = self.index.members.get(class_id, {}).get(name)
        if found:
            return found
        for base in self._bases(class_id, consulted):
            found = self._find_member(base, name, consulted, depth + 1, seen)
            if found:
                return found
        return None

    def _attribute_class(self, class_id: str, name: str, consulted: set[str], depth: int, seen: set[str]) -> str | None:
        """The class of a typed attribute of ``class_id`` or of its bases."""
        if class_id in seen or depth > MAX_DEPTH:
            return None
        seen.add(class_id)
        consulted.add(f"{class_id}#{name}")
        node = self.rpg.node(class_id)
        type_expr = node.extra.get("types", {}).get(name)
        if type_expr:
            return self._class_named(node.path, type_expr, consulted, depth)
        for base in self._bases(class_id, consulted):
            found = self._attribute_class(base, name, consulted, depth + 1, seen)
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
    """What each lookup in a module can answer, as comparable text: each top-level name (``*`` holds star
    imports) and, under ``class_id#name``, each member and typed attribute of each class in it.

    A class's own text holds its kind, bases and typed attributes; its members have entries of their
    own, so adding a method changes only the lookups of that name. Every route to a class's members
    first looks the class up (by its module's name or as a member), so that lookup's entry covers
    the class's bases.
    """
    table: dict[str, str] = {}
    for child in rpg.children(file_id):
        table[rpg.node(child).name] = _unit_text(rpg, child)
    for unit_id in rpg.descendants(file_id):
        unit = rpg.node(unit_id)
        if unit.kind is NodeKind.CLASS:
            for member in rpg.children(unit_id):
                table[f"{unit_id}#{rpg.node(member).name}"] = _unit_text(rpg, member)
            for name, type_expr in unit.extra.get("types", {}).items():
                key = f"{unit_id}#{name}"
                table[key] = f"{table.get(key, '')}|type {type_expr}"
    file_node = rpg.node(file_id)
    for local, module, symbol in file_node.extra["imports"]:
        table.setdefault(local, f"import {module}:{symbol}")
    for name, type_expr in sorted(file_node.extra.get("variables", {}).items()):
        table.setdefault(name, f"variable {type_expr}")
    table["*"] = ",".join(file_node.extra["stars"])
    return table


def _unit_text(rpg: RPG, node_id: str) -> str:
    node = rpg.node(node_id)
    types = ",".join(f"{k}:{v}" for k, v in sorted(node.extra.get("types", {}).items())) \
        if node.kind is NodeKind.CLASS else ""
    return f"{node.id}/{node.kind.value}/{','.join(node.extra.get('bases', []))}/{types}"
