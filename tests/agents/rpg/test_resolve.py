"""Dependency edges on fixture repositories: aliases, re-exports, self/super calls, inheritance."""

from agents.rpg.build import build_rpg
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.resolve import bindings
from agents.rpg.source import read_commit
from benchmarks.repo.demo import init_repo
from memory.rpg.graph import EdgeKind


def edges(rpg, kind):
    return {(s, t) for s, t, _ in rpg.edges(kind)}


def test_demo_imports_through_aliases_and_re_exports(demo_rpg):
    imports = edges(demo_rpg, EdgeKind.IMPORTS)
    assert ("shop/pricing.py", "shop/models.py") in imports  # import shop.models as m
    assert ("shop/pricing.py", "shop/util.py:round_money") in imports  # from .util import round_money as rm
    assert ("shop/report.py", "shop/cart.py:Cart") in imports  # from shop import Cart (re-exported)
    assert ("shop/cart.py", "shop/pricing.py") in imports  # from shop import pricing (a submodule)


def test_demo_calls_through_imports_self_and_super(demo_rpg):
    invokes = edges(demo_rpg, EdgeKind.INVOKES)
    assert ("shop/pricing.py:apply_discount", "shop/util.py:round_money") in invokes  # rm(...)
    assert ("shop/cart.py:Cart.checkout", "shop/pricing.py:apply_discount") in invokes  # pricing.apply_discount
    assert ("shop/cart.py:Cart.checkout", "shop/cart.py:Cart.total") in invokes  # self.total()
    assert ("shop/models.py:DiscountedItem.__init__", "shop/models.py:Item.__init__") in invokes  # super()
    assert ("shop/report.py:empty_receipt", "shop/cart.py:Cart") in invokes  # Cart() via re-export
    assert edges(demo_rpg, EdgeKind.INHERITS) == {("shop/models.py:DiscountedItem", "shop/models.py:Item")}


FILES = {
    "lib/__init__.py": "from lib.core import *\n",
    "lib/core.py": "class Base:\n    def helper(self):\n        return 1\n\n\ndef make():\n    return Base()\n",
    "lib/ext/__init__.py": "",
    "lib/ext/plugin.py": ("import lib\nimport lib.core\nfrom lib import Base as Root\n\n\n"
                          "class Plugin(Root):\n    def run(self):\n        return self.helper() + lib.make()\n\n"
                          "    def again(self):\n        return lib.core.make()\n\n\n"
                          "class Sub(Plugin):\n    def run(self):\n        return super().run() + len([])\n"),
}


def test_star_imports_inherited_self_calls_and_dotted_modules(tmp_path):
    repo = tmp_path / "lib"
    commit = init_repo(repo, FILES)
    rpg, _ = build_rpg(read_commit(repo, commit), OfflineLifter(), commit=commit)
    invokes = edges(rpg, EdgeKind.INVOKES)
    assert ("lib/ext/plugin.py:Plugin.run", "lib/core.py:Base.helper") in invokes  # inherited via self
    assert ("lib/ext/plugin.py:Plugin.run", "lib/core.py:make") in invokes  # lib.make via star re-export
    assert ("lib/ext/plugin.py:Plugin.again", "lib/core.py:make") in invokes  # lib.core.make
    assert ("lib/ext/plugin.py:Sub.run", "lib/ext/plugin.py:Plugin.run") in invokes  # super().run
    assert not any(t.endswith("len") for _, t in invokes)  # builtins stay unresolved
    assert edges(rpg, EdgeKind.INHERITS) == {("lib/ext/plugin.py:Plugin", "lib/core.py:Base"),
                                             ("lib/ext/plugin.py:Sub", "lib/ext/plugin.py:Plugin")}
    assert "lib.core:Base" in rpg.node("lib/ext/plugin.py").extra["consults"]


def test_bindings_describe_what_each_name_resolves_to(demo_rpg):
    table = bindings(demo_rpg, "shop/__init__.py")
    assert table["Cart"] == "import shop.cart:Cart" and table["*"] == ""
    models = bindings(demo_rpg, "shop/models.py")
    assert models["Item"] == "shop/models.py:Item/class//"  # the class itself; its members have entries of their own
    assert models["shop/models.py:Item#price"] == "shop/models.py:Item.price/method//"
    assert models["DiscountedItem"] == "shop/models.py:DiscountedItem/class/Item/"


TYPED = {
    "app/__init__.py": "from app.core import Engine\nfrom app.globals import current\n",
    "app/core.py": ("class Store:\n    def get(self, key):\n        return key\n\n\n"
                    "class Engine:\n    def __init__(self, store: Store):\n        self.store = store\n"
                    "        self.backup = Store()\n\n    def run(self):\n        return self.store.get(1)\n\n"
                    "    def again(self):\n        return self.backup.get(2)\n\n\n"
                    "class Turbo(Engine):\n    def boost(self):\n        return self.store.get(3)\n"),
    "app/globals.py": "from app.core import Engine, Store\n\ncurrent: 'Engine' = make_proxy()\n",
    "app/use.py": ("from app import Engine, current\nfrom app.core import Store\n\n\n"
                   "def local_instance():\n    engine = Engine(Store())\n    return engine.run()\n\n\n"
                   "def annotated(engine: Engine):\n    return engine.again()\n\n\n"
                   "def proxy():\n    return current.run()\n\n\n"
                   "def constructed():\n    return Store().get(0)\n\n\n"
                   "def shadowed(Store):\n    store = Store\n    return store.get(1)\n"),
}


def test_calls_through_plain_types(tmp_path):
    repo = tmp_path / "app"
    commit = init_repo(repo, TYPED)
    rpg, _ = build_rpg(read_commit(repo, commit), OfflineLifter(), commit=commit)
    invokes = edges(rpg, EdgeKind.INVOKES)
    assert ("app/core.py:Engine.run", "app/core.py:Store.get") in invokes  # self.store from a parameter type
    assert ("app/core.py:Engine.again", "app/core.py:Store.get") in invokes  # self.backup = Store()
    assert ("app/core.py:Turbo.boost", "app/core.py:Store.get") in invokes  # an attribute of the base class
    assert ("app/use.py:local_instance", "app/core.py:Engine.run") in invokes  # engine = Engine(...)
    assert ("app/use.py:annotated", "app/core.py:Engine.again") in invokes  # engine: Engine
    assert ("app/use.py:proxy", "app/core.py:Engine.run") in invokes  # current: 'Engine' in another module
    assert ("app/use.py:constructed", "app/core.py:Store.get") in invokes  # Store().get
    assert not any(s == "app/use.py:shadowed" and t.endswith("Store.get") for s, t in invokes)  # no plain type
    assert "app.globals:current" in rpg.node("app/use.py").extra["consults"]
