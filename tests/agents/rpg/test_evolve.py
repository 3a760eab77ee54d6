"""Incremental evolution equals a full rebuild of the new commit, node for node and edge for edge."""

import pytest

from agents.rpg.build import build_rpg
from agents.rpg.evolve import changed_paths, evolve
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import read_commit
from benchmarks.repo.demo import commit_all, write_files
from sandboxes.errors import UserError


class CountingLifter(OfflineLifter):
    """The offline lifter, remembering which units it was asked to lift."""

    def __init__(self):
        self.lifted: list[str] = []

    def lift_units(self, rpg, unit_ids):
        self.lifted += unit_ids
        super().lift_units(rpg, unit_ids)


def assert_equals_rebuild(rpg, repo, commit):
    full, _ = build_rpg(read_commit(repo, commit), OfflineLifter(), commit=commit)
    nodes, edges = rpg.signature()
    full_nodes, full_edges = full.signature()
    assert edges == full_edges, edges ^ full_edges
    assert nodes == full_nodes


def edit(repo, path, old, new):
    write_files(repo, {path: (repo / path).read_text().replace(old, new)})


@pytest.fixture
def evolving(demo, demo_rpg):
    repo, _ = demo
    return repo, demo_rpg


def test_body_edit_reparses_one_file_and_relifts_one_unit(evolving):
    repo, rpg = evolving
    edit(repo, "shop/pricing.py", "percent / 10", "percent / 100")
    new = commit_all(repo, "fix")
    lifter = CountingLifter()
    stats = evolve(rpg, str(repo), new, lifter)
    assert stats.parsed == ["shop/pricing.py"] and lifter.lifted == ["shop/pricing.py:apply_discount"]
    assert stats.resolved_files == 1  # nobody else's lookups changed
    assert_equals_rebuild(rpg, repo, new)


def test_add_delete_rename_and_new_package(evolving):
    repo, rpg = evolving
    edit(repo, "shop/pricing.py", "def add_tax", "def add_vat")
    edit(repo, "shop/cart.py", "pricing.add_tax", "pricing.add_vat")
    (repo / "shop/report.py").unlink()
    write_files(repo, {"shop/extra/__init__.py": "",
                       "shop/extra/coupons.py": "from shop.pricing import apply_discount as ad\n"
                                                "from ..models import DiscountedItem\n\n\n"
                                                "class Coupon(DiscountedItem):\n    def use(self):\n"
                                                "        return ad(self.price(), 5)\n"})
    new = commit_all(repo, "mixed change")
    evolve(rpg, str(repo), new, OfflineLifter())
    assert "shop/report.py" not in rpg and "shop/pricing.py:add_tax" not in rpg
    assert "subcategory:shop/extra" not in rpg and "category:shop/extra" in rpg
    assert_equals_rebuild(rpg, repo, new)


def test_changes_to_a_base_class_reach_subclasses_in_other_files(evolving):
    repo, rpg = evolving
    write_files(repo, {"shop/special.py": "from .models import Item\n\n\nclass Special(Item):\n"
                                          "    def show(self):\n        return self.describe()\n"})
    first = commit_all(repo, "subclass")
    evolve(rpg, str(repo), first, OfflineLifter())
    edit(repo, "shop/models.py", "    def price(self):\n        return self.unit_price\n",
         "    def price(self):\n        return self.unit_price\n\n    def describe(self):\n        return self.name\n")
    second = commit_all(repo, "base gains describe")
    stats = evolve(rpg, str(repo), second, OfflineLifter())
    assert ("shop/special.py:Special.show", "shop/models.py:Item.describe") in {(s, t) for s, t, _ in rpg.edges()}
    assert stats.resolved_files < len(list(rpg.nodes())) and stats.parsed == ["shop/models.py"]
    assert_equals_rebuild(rpg, repo, second)
    edit(repo, "shop/models.py", "    def describe(self):\n        return self.name\n", "")
    third = commit_all(repo, "describe removed")
    evolve(rpg, str(repo), third, OfflineLifter())
    assert_equals_rebuild(rpg, repo, third)


def test_moved_code_keeps_features_and_a_new_init_renames_modules(evolving):
    repo, rpg = evolving
    rpg.node("shop/util.py:round_money").features = ["features from an earlier model lifting"]
    edit(repo, "shop/util.py", '"""Money helpers."""\n', '"""Money helpers."""\n\nCENTS = 100\n')
    write_files(repo, {"tools/helpers.py": "from shop.util import round_money\n\n\ndef go():\n    return round_money(1)\n"})
    new = commit_all(repo, "move and add")
    lifter = CountingLifter()
    evolve(rpg, str(repo), new, lifter)
    assert "shop/util.py:round_money" not in lifter.lifted
    assert rpg.node("shop/util.py:round_money").features == ["features from an earlier model lifting"]
    write_files(repo, {"tools/__init__.py": ""})
    newer = commit_all(repo, "tools becomes a package")
    evolve(rpg, str(repo), newer, OfflineLifter())
    assert rpg.node("tools/helpers.py").extra["module"] == "tools.helpers"
    OfflineLifter().lift_units(rpg, ["shop/util.py:round_money"])  # the rebuild lifts offline
    assert_equals_rebuild(rpg, repo, newer)


def test_missing_commit_is_reported(evolving):
    repo, rpg = evolving
    with pytest.raises(UserError):
        evolve(rpg, str(repo), "f" * 40, OfflineLifter())
    assert changed_paths(str(repo), rpg.commit, rpg.commit) == (set(), [])


def test_summary_drift_decides_re_placement():
    from agents.rpg.evolve import drifted
    assert not drifted("discounts and taxes", "discounts and taxes")
    assert not drifted("compute discounts and taxes", "computes discounts and taxes")
    assert drifted("discounts and taxes", "render printable receipts")


def test_type_changes_in_one_file_reach_calls_through_them_in_others(evolving):
    repo, rpg = evolving
    write_files(repo, {"shop/register.py": "from .cart import Cart\n\n\nclass Register:\n"
                                           "    def __init__(self):\n        self.cart = Cart()\n\n"
                                           "    def ring(self):\n        return self.cart.total()\n",
                       "shop/till.py": "from .register import Register\n\n\ndef close(register: Register):\n"
                                       "    return register.cart.checkout()\n"})
    first = commit_all(repo, "register")
    evolve(rpg, str(repo), first, OfflineLifter())
    assert ("shop/till.py:close", "shop/cart.py:Cart.checkout") in {(s, t) for s, t, _ in rpg.edges()}
    edit(repo, "shop/register.py", "self.cart = Cart()", "self.cart = Item('x', 1)")
    edit(repo, "shop/register.py", "from .cart import Cart", "from .models import Item")
    second = commit_all(repo, "the register holds an item")
    stats = evolve(rpg, str(repo), second, OfflineLifter())
    assert stats.changed == ["shop/register.py"]  # till.py is re-resolved, not re-read
    assert ("shop/till.py:close", "shop/cart.py:Cart.checkout") not in {(s, t) for s, t, _ in rpg.edges()}
    assert_equals_rebuild(rpg, repo, second)


def test_a_new_method_re_resolves_only_the_files_that_look_that_name_up(evolving):
    repo, rpg = evolving
    edit(repo, "shop/report.py", '    return "\\n".join(', '    cart.clear()\n    return "\\n".join(')
    first = commit_all(repo, "the receipt clears the cart (no such method yet)")
    evolve(rpg, str(repo), first, OfflineLifter())
    assert "shop/cart.py:Cart#clear" in rpg.node("shop/report.py").extra["consults"]
    edit(repo, "shop/cart.py", "    def total(self):",
         "    def clear(self):\n        self.items = []\n\n    def total(self):")
    second = commit_all(repo, "the cart can be cleared")
    stats = evolve(rpg, str(repo), second, OfflineLifter())
    assert stats.resolved_files == 2  # cart.py and report.py, not shop/__init__.py: Cart's own text is unchanged
    assert ("shop/report.py:receipt", "shop/cart.py:Cart.clear") in {(s, t) for s, t, _ in rpg.edges()}
    assert_equals_rebuild(rpg, repo, second)
    edit(repo, "shop/cart.py", "    def checkout(self",
         "    def empty(self):\n        return not self.items\n\n    def checkout(self")
    third = commit_all(repo, "a method nobody calls")
    assert evolve(rpg, str(repo), third, OfflineLifter()).resolved_files == 1
    assert_equals_rebuild(rpg, repo, third)
