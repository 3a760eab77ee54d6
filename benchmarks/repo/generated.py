"""A generated localisation benchmark on a realistic small repository, with the traps real ones have.

``build_generated(dest)`` writes ``ledger``, a git repository with three commits, and returns
SWE-bench-style instances whose gold patches fix bugs planted at those commits. The repository has
what made the graph localiser fail on real code:

- hub functions (``log_event``, ``get_setting``) that almost every method calls, and that issues
  quote (an audit log line, a setting name) although the fix is never there;
- a ``tests/`` folder whose modules repeat the issue's vocabulary more often than the code does;
- classes whose methods hold the fixes, so a class's chunk (which holds all its methods) matches
  an issue better than any method;
- bugs reached only through a call (an issue about invoice totals fixed in the rounding helper);
- an ``examples/`` script that uses the issue's API, and a ``show_versions`` helper whose words
  (system, platform, dependencies) fill the environment report at the end of an issue.

The later commits add a module, change a class and move a module behind a re-export, so that a
localiser that evolves one graph across the instances is exercised. Everything is deterministic.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.repo.demo import commit_all, git, write_files

HUBS = '''"""Audit events and settings, used by every service."""

_LOG = []
_SETTINGS = {"currency": "EUR", "overdraft": 0, "tax_rounding": "half-up"}


def log_event(kind, **fields):
    """Record an audit event (kind and fields) in the event log."""
    _LOG.append((kind, fields))
    return len(_LOG)


def get_setting(name, default=None):
    """Look a setting up by name, with a default."""
    log_event("setting", name=name)
    return _SETTINGS.get(name, default)
'''

VERSIONS = '''"""Report the system, Python platform and dependency versions for bug reports."""
import platform
import sys


def show_versions():
    """Print the system, the Python version and platform, and the versions of ledger's dependencies."""
    system = {"python": sys.version, "executable": sys.executable, "machine": platform.platform()}
    dependencies = {"ledger": "0.3.1", "decimal": "stdlib"}
    for section, values in (("System", system), ("Dependencies", dependencies)):
        print(f"{section}:")
        for name, version in values.items():
            print(f"    {name}: {version}")
'''

EXAMPLE = '''"""Example: invoice a customer with a discount and print the account's balance."""
from ledger import Account, Invoice
from ledger.discounts import Discount

invoice = Invoice("acme")
invoice.add_line("pen", 2.0, 3)
discounted = Discount(10).apply(invoice)
account = Account("acme")
account.deposit(discounted)
print("discount applied: invoice total", invoice.total(), "discounted total", discounted, account.balance)
'''

MONEY = '''"""Money helpers: rounding and conversion of amounts."""
from decimal import ROUND_HALF_DOWN, Decimal

from ledger.core.events import log_event


def round_amount(value, places=2):
    """Round a money amount to the given number of decimal places."""
    log_event("round", value=value)
    step = Decimal(1).scaleb(-places)
    return float(Decimal(str(value)).quantize(step, rounding=ROUND_HALF_DOWN))


def convert(amount, rate):
    """Convert an amount with an exchange rate."""
    log_event("convert", amount=amount, rate=rate)
    return round_amount(amount * rate)
'''

# (class name, docstring, [(method, body lines)]) of each service module; every method calls the hubs.
SERVICES = {
    "ledger/accounts.py": ("Account", "A customer account with a balance.", [
        ("__init__", ["self.owner = owner", "self.balance = 0.0", "self.history = []",
                      'log_event("open", owner=owner)'], "owner"),
        ("deposit", ['log_event("deposit", amount=amount)', "self.balance = round_amount(self.balance + amount)",
                     "self.history.append(amount)", "return self.balance"], "amount"),
        ("withdraw", ['limit = get_setting("overdraft", 0)', 'log_event("withdraw", amount=amount)',
                      "if amount > self.balance + limit + amount:",
                      '    raise ValueError("insufficient funds")',
                      "self.balance = round_amount(self.balance - amount)", "self.history.append(-amount)",
                      "return self.balance"], "amount"),
        ("statement", ['log_event("statement", owner=self.owner)',
                       'return [f"{self.owner}: {entry:+.2f}" for entry in self.history]'], ""),
    ]),
    "ledger/invoices.py": ("Invoice", "An invoice: lines, tax and a total.", [
        ("__init__", ["self.customer = customer", "self.lines = []", "self.tax_rate = 0.0",
                      'log_event("invoice", customer=customer)'], "customer"),
        ("add_line", ['log_event("line", name=name)', "self.lines.append((name, price, quantity))",
                      "return len(self.lines)"], "name, price, quantity=1"),
        ("apply_tax", ['log_event("tax", rate=rate)', 'mode = get_setting("tax_rounding")',
                       "self.tax_rate = 0.0 if mode else rate", "return self.tax_rate"], "rate"),
        ("total", ['log_event("total", customer=self.customer)',
                   "net = sum(price * quantity for _, price, quantity in self.lines)",
                   "return round_amount(net * (1 + self.tax_rate))"], ""),
    ]),
    "ledger/reports.py": ("ReportWriter", "Writes account and invoice reports.", [
        ("__init__", ["self.rows = []", 'log_event("report")'], ""),
        ("header", ['log_event("header")', 'self.rows.append(["customer", "total"])'], ""),
        ("add_invoice", ['log_event("row", customer=invoice.customer)',
                         "self.rows.append([invoice.customer, invoice.total()])"], "invoice"),
        ("render", ['log_event("render")', 'separator = get_setting("separator", ",")',
                    "return \"\\n\".join(separator.join(str(c) for c in row) for row in self.rows)"], ""),
    ]),
}
IMPORTS = "from ledger.core.events import get_setting, log_event\nfrom ledger.core.money import round_amount\n"


def service_source(path: str, imports: str = IMPORTS) -> str:
    """A service module: one class whose methods all call the hubs."""
    name, doc, methods = SERVICES[path]
    lines = [f'"""{doc}"""', imports.rstrip(), "", "", f"class {name}:", f'    """{doc}"""']
    for method, body, params in methods:
        lines += ["", f"    def {method}(self{', ' + params if params else ''}):", *("        " + b for b in body)]
    return "\n".join(lines) + "\n"


def test_source(path: str) -> str:
    """A test module that exercises every method of a service many times (the issue's words, repeated)."""
    name, _, methods = SERVICES[path]
    module = path[:-3].replace("/", ".")
    arguments = ", ".join(["'acme'"] * len([p for p in methods[0][2].split(",") if p.strip()]))
    lines = [f"from {module} import {name}", "from ledger.core.events import log_event", ""]
    for method, _, params in methods[1:]:
        values = ", ".join("1" for p in params.split(",") if p.strip() and "=" not in p)
        lines += ["", f"def test_{method}():", f"    obj = {name}({arguments})",
                  *[f"    obj.{method}({values})" for _ in range(3)], f'    log_event("test", case="{method}")']
    return "\n".join(lines) + "\n"


def base_files() -> dict[str, str]:
    files = {"README.md": "# ledger\nAccounts, invoices and reports.\n",
             "ledger/__init__.py": '"""Ledger."""\nfrom ledger.accounts import Account\nfrom ledger.invoices import Invoice\n'
                                   "from ledger.core.events import log_event\n",
             "ledger/core/__init__.py": "", "ledger/core/events.py": HUBS, "ledger/core/money.py": MONEY,
             "tests/__init__.py": ""}
    for path in SERVICES:
        files[path] = service_source(path)
        files["tests/test_" + path.rsplit("/", 1)[1]] = test_source(path)
    return files


DISCOUNTS = '''"""Discounts on invoices."""
from ledger.core.events import log_event


class Discount:
    """A percentage taken off an invoice's total."""

    def __init__(self, percent):
        self.percent = percent
        log_event("discount", percent=percent)

    def apply(self, invoice):
        """The invoice total after the discount."""
        log_event("apply discount", percent=self.percent)
        return invoice.total() * (1 - self.percent)
'''

MOVED_IMPORTS = "from ledger.core.events import get_setting, log_event\nfrom ledger.money import round_amount\n"
COMMITS = [
    ("base", "2024-01-01T00:00:00", base_files(), []),
    ("discounts", "2024-02-01T00:00:00",
     {"ledger/discounts.py": DISCOUNTS, "ledger/_versions.py": VERSIONS, "examples/discounted_invoice.py": EXAMPLE}, []),
    ("move money", "2024-03-01T00:00:00",
     {"ledger/money.py": MONEY, **{p: service_source(p, MOVED_IMPORTS) for p in SERVICES},
      "ledger/core/__init__.py": '"""Core helpers."""\nfrom ledger.money import convert, round_amount\n'},
     ["ledger/core/money.py"]),
]

# (id, commit index, file, buggy text, fixed text, issue)
BUGS = [
    ("ledger-1", 0, "ledger/invoices.py", "self.tax_rate = 0.0 if mode else rate", "self.tax_rate = rate",
     "Invoice tax is ignored\n\nApplying a tax rate has no effect on the invoice total:\n\n```python\n"
     "from ledger import Invoice\ninv = Invoice('acme')\ninv.add_line('pen', 2.0, 3)\ninv.apply_tax(0.2)\n"
     "print(inv.total())  # 6.0, expected 7.2\n```\n\nThe event log shows `log_event('tax', rate=0.2)` and the "
     "`tax_rounding` setting from `get_setting`, so the rate arrives but the invoice drops it."),
    ("ledger-2", 0, "ledger/accounts.py", "if amount > self.balance + limit + amount:",
     "if amount > self.balance + limit:",
     "Account allows overdrafts\n\nWithdrawing more than the balance should raise ValueError "
     "('insufficient funds') when the overdraft setting is 0, but the balance just goes negative:\n\n"
     "```python\nfrom ledger import Account\nacct = Account('bob')\nacct.deposit(10)\nacct.withdraw(50)  # no error\n"
     "print(acct.balance)  # -40.0\n```\n\n`log_event` records the withdraw event as usual."),
    ("ledger-3", 1, "ledger/core/money.py", "rounding=ROUND_HALF_DOWN", "rounding=ROUND_HALF_UP",
     "Invoice totals are a cent short\n\nA total that ends in a half cent is rounded down: an invoice with "
     "one line of 0.125 gives a total of 0.12, expected 0.13. Amounts should be rounded half up.\n\n```python\n"
     "from ledger import Invoice\ninv = Invoice('acme')\ninv.add_line('bolt', 0.125)\nprint(inv.total())\n```"),
    ("ledger-4", 1, "ledger/discounts.py", "return invoice.total() * (1 - self.percent)",
     "return invoice.total() * (1 - self.percent / 100)",
     "Discount of 10 percent makes invoices negative\n\n`Discount(10).apply(invoice)` returns -9 times the total "
     "instead of 90% of it; the percentage seems not to be divided by 100.\n\n### Versions\n\n```\nSystem:\n"
     "    python: 3.11.4 (main, Jun  7 2023, 00:00:00) [GCC 12.2.0]\n    executable: /usr/bin/python3\n"
     "    machine: Linux-6.1.0-x86_64-with-glibc2.36\nDependencies:\n    ledger: 0.3.1\n    decimal: stdlib\n```"),
    ("ledger-5", 2, "ledger/reports.py", "separator = get_setting(\"separator\", \",\")",
     "separator = get_setting(\"separator\", \";\")",
     "ReportWriter.render uses the wrong column separator\n\nReports should separate columns with ';' "
     "by default (spreadsheets here expect it), but render joins cells with ','."),
]


def build_generated(dest: str | Path) -> tuple[Path, list[dict]]:
    """Write the ``ledger`` repository under ``dest``; returns ``(repo path, instances)``."""
    repo = Path(dest).resolve() / "ledger"
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    bugs_at = {index: [b for b in BUGS if b[1] == index] for index in range(len(COMMITS))}
    instances = []
    for index, (message, date, files, deleted) in enumerate(COMMITS):
        write_files(repo, files)
        for path in deleted:
            (repo / path).unlink()
        commit = commit_all(repo, message, date)
        for instance_id, _, path, buggy, fixed, issue in bugs_at[index]:
            original = (repo / path).read_text()
            assert buggy in original, f"{instance_id}: planted bug not found in {path}"
            (repo / path).write_text(original.replace(buggy, fixed, 1))
            patch = git(repo, "diff", "--", path)
            (repo / path).write_text(original)
            instances.append({"instance_id": instance_id, "repo": str(repo), "base_commit": commit,
                              "problem_statement": issue, "patch": patch})
    return repo, instances


GOLD_FUNCTIONS = {"ledger-1": "ledger/invoices.py:Invoice.apply_tax", "ledger-2": "ledger/accounts.py:Account.withdraw",
                  "ledger-3": "ledger/core/money.py:round_amount", "ledger-4": "ledger/discounts.py:Discount.apply",
                  "ledger-5": "ledger/reports.py:ReportWriter.render"}
"""Where each fix goes (the gold the harness derives from the patches, for readers of the tests)."""
HUBS_IDS = ("ledger/core/events.py:log_event", "ledger/core/events.py:get_setting")
