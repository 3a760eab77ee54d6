"""A small demo repository with planted bugs and SWE-bench-style instances for it.

``build_demo(dest)`` writes a git repository whose base commit holds three bugs and returns the
instances (problem statement, gold patch, base commit) in SWE-bench's schema. The tests use it as
their fixture, and ``agent bench repo --instances demo`` runs the harness on it without a network.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

FILES = {
    "README.md": "# shop\nA tiny shopping cart.\n",
    "shop/__init__.py": '"""Shop: carts, items and pricing."""\nfrom .cart import Cart as Cart\n'
                        "from .pricing import apply_discount\n",
    "shop/util.py": '"""Money helpers."""\n\n\ndef round_money(value):\n    """Round a money amount to cents."""\n'
                    "    return round(value, 2)\n",
    "shop/models.py": '"""Items sold by the shop."""\n\n\nclass Item:\n    """A product with a unit price."""\n\n'
                      "    def __init__(self, name, unit_price, quantity=1):\n        self.name = name\n"
                      "        self.unit_price = unit_price\n        self.quantity = quantity\n\n"
                      "    def price(self):\n        return self.unit_price\n\n\n"
                      "class DiscountedItem(Item):\n    \"\"\"An item on sale.\"\"\"\n\n"
                      "    def __init__(self, name, unit_price, rebate, quantity=1):\n"
                      "        super().__init__(name, unit_price, quantity)\n        self.rebate = rebate\n\n"
                      "    def price(self):\n        return self.unit_price - self.rebate\n",
    "shop/pricing.py": '"""Discounts and taxes."""\nimport shop.models as m\nfrom .util import round_money as rm\n\n\n'
                       "def apply_discount(total, percent):\n    \"\"\"Apply a percentage discount to a total.\"\"\"\n"
                       "    return rm(total * (1 - percent / 10))\n\n\n"
                       "def add_tax(total, rate=0.2):\n    return rm(total * (1 + rate))\n\n\n"
                       "def is_item(value):\n    return isinstance(value, m.Item)\n",
    "shop/cart.py": '"""The shopping cart."""\nfrom shop import pricing\nfrom .models import Item\n\n\n'
                    "class Cart:\n    \"\"\"Holds items and computes totals.\"\"\"\n\n"
                    "    def __init__(self):\n        self.items = []\n\n"
                    "    def add(self, name, unit_price, quantity=1):\n"
                    "        self.items.append(Item(name, unit_price, quantity))\n\n"
                    "    def total(self):\n        return sum(item.price() for item in self.items)\n\n"
                    "    def checkout(self, percent=0):\n"
                    "        return pricing.add_tax(pricing.apply_discount(self.total(), percent))\n",
    "shop/report.py": '"""Printable receipts."""\nfrom shop import Cart\n\n\n'
                      "def receipt(cart: Cart):\n    lines = [f\"{i.name}: {i.price()}\" for i in cart.items]\n"
                      "    return \"\\n\".join(lines + [f\"total: {cart.total()}\"])\n\n\n"
                      "def empty_receipt():\n    return receipt(Cart())\n",
}

FIXES = [
    ("demo__shop-1", "shop/pricing.py", "percent / 10", "percent / 100",
     "A 10 percent discount makes the total zero. `apply_discount(50, 10)` returns 0.0 instead of 45.0; "
     "the discount percentage seems to be scaled wrongly."),
    ("demo__shop-2", "shop/models.py", "return self.unit_price\n", "return self.unit_price * self.quantity\n",
     "Item price ignores the quantity: a cart with 3 apples at 2.0 reports a total of 2.0, not 6.0. "
     "The price of an item should multiply the unit price by how many were bought."),
    ("demo__shop-3", "shop/models.py", "return self.unit_price - self.rebate", "return super().price() - self.rebate",
     "DiscountedItem price is wrong for more than one unit: the rebate is taken off the unit price "
     "but the quantity is not applied the way Item does it."),
]


DATE = "2024-01-01T00:00:00"


def git(repo: Path, *args: str, date: str = DATE) -> str:
    """Run git in ``repo`` with a fixed identity and date (reproducible hashes); returns stdout."""
    env = {"GIT_AUTHOR_NAME": "demo", "GIT_AUTHOR_EMAIL": "demo@example.com", "GIT_COMMITTER_NAME": "demo",
           "GIT_COMMITTER_EMAIL": "demo@example.com", "GIT_AUTHOR_DATE": date,
           "GIT_COMMITTER_DATE": date, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def write_files(repo: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def commit_all(repo: Path, message: str, date: str = DATE) -> str:
    """Commit everything in ``repo`` (at a fixed ``date``, so commits are reproducible); returns the hash."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD").strip()


def init_repo(repo: Path, files: dict[str, str]) -> str:
    """A fresh git repository at ``repo`` holding ``files``; returns the commit."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    write_files(repo, files)
    return commit_all(repo, "initial")


def build_demo(dest: str | Path) -> tuple[Path, list[dict]]:
    """Write the demo repository under ``dest`` and return ``(repo path, instances)``."""
    repo = Path(dest).resolve() / "shop"
    base = init_repo(repo, FILES)
    instances = []
    for instance_id, path, old, new, statement in FIXES:
        original = (repo / path).read_text()
        (repo / path).write_text(original.replace(old, new, 1))
        patch = git(repo, "diff", "--", path)
        (repo / path).write_text(original)
        instances.append({"instance_id": instance_id, "repo": str(repo), "base_commit": base,
                          "problem_statement": statement, "patch": patch, "test_patch": "",
                          "FAIL_TO_PASS": "[]", "PASS_TO_PASS": "[]", "version": "0.1"})
    return repo, instances


def add_detour(repo: Path, rows: list[dict]) -> list[dict]:
    """Two later commits of the demo, ``far`` (May: two modules edited, one added) and ``near`` (June: back
    to the base, plus one new module), with an instance each, after ``rows``: the shortest visiting order
    (far, base, near: 3 + 1 files changed) is not commit time's (base, far, near: 3 + 4)."""
    original = {path: (repo / path).read_text() for path in ("shop/util.py", "shop/cart.py")}
    write_files(repo, {path: text + "# far\n" for path, text in original.items()} | {"shop/far.py": "X = 1\n"})
    far = commit_all(repo, "far", date="2024-05-01T00:00:00")
    (repo / "shop/far.py").unlink()
    write_files(repo, {**original, "shop/near.py": "Y = 2\n"})
    near = commit_all(repo, "near", date="2024-06-01T00:00:00")
    return rows + [{**rows[0], "instance_id": name, "base_commit": commit} for name, commit in (("far", far),
                                                                                                 ("near", near))]


def write_demo_instances(dest: str | Path) -> Path:
    """Build the demo repository and write its instances as JSONL beside it."""
    _, instances = build_demo(dest)
    path = Path(dest) / "demo_instances.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in instances))
    return path
