"""Native code judged by the compiler: a build preprocesses the solution's source (``-E``) and lists
the built object's undefined symbols, inside the sandbox, beside the compile itself; the host then
refuses inline assembly, OpenMP thread-count clauses and any symbol off :mod:`sandboxes.targets.symbols`.

The sandbox returns two small files: ``user.i`` (the preprocessed lines that come from the solution's
own file, macros expanded, comments gone) and ``undefined.txt`` (``nm -u`` names, demangled without
parameters). A rejected build is not cached as loadable: only its verdict is stored.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from pathlib import Path
from typing import Mapping, Sequence

from sandboxes.targets import symbols
from sandboxes.targets.base import BuildOutcome

USER_LINES = "user.i"
UNDEFINED = "undefined.txt"
PROBE_FILES = (USER_LINES, UNDEFINED)
PREPROCESSED = "pre.i"
STRING = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
INLINE_ASM = re.compile(r"\b(?:asm|__asm|__asm__)\b")
THREAD_COUNT = re.compile(r"^\s*#\s*pragma\s+omp\b.*\bnum_threads\s*\(", re.MULTILINE)
MAX_NAMED = 8


def check_version() -> str:
    """Identity of the native checks (part of the build cache's salt: a cached build was checked by these rules)."""
    digest = hashlib.sha256()
    for module in (symbols.__file__, __file__, Path(__file__).with_name("compile.py")):  # compile.py: the flag rules
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()[:12]


def probe_script(build: Sequence[str], sources: Sequence[tuple[Sequence[str], str]], artifact: str,
                 build_first: bool = False) -> str:
    """A shell script that builds ``artifact`` with ``build`` and leaves ``user.i`` and ``undefined.txt``.

    ``sources``: (compiler invocation with ``-E`` writing to stdout, the file name its line markers give
    the solution's own source). ``build_first`` when the build writes the sources it compiles (load_inline).
    The probe's own files exist before both the build and the preprocessing, so that ``__has_include`` of one
    of them cannot see one thing in the compiled code and another in the checked text."""
    lines = [f": > {USER_LINES}", f": > {PREPROCESSED}"]
    for preprocess, source in sources:
        marker = shlex.quote(f'/^# [0-9]+ "/ {{keep = ($3 == "\\"{source}\\""); next}} keep')
        lines += [f"{shlex.join(preprocess)} > {PREPROCESSED}", f"awk {marker} {PREPROCESSED} >> {USER_LINES}"]
    lines.insert(2 if build_first else len(lines), shlex.join(build))
    lines.append(f"nm -u {shlex.quote(artifact)} | awk '{{print $NF}}' | sed 's/@.*//' | c++filt -p > {UNDEFINED}")
    return "set -e\n" + "\n".join(lines)


def judge(files: Mapping[str, bytes], build: str) -> BuildOutcome | None:
    """A rejected outcome when the probe's files show inline assembly, a thread-count clause or a refused
    symbol; None when the build passes (or produced no probe, which is itself a rejection)."""
    if not all(name in files for name in PROBE_FILES):
        return _rejected("native_escape", "the build left no preprocessed source or symbol list to check")
    user = files[USER_LINES].decode(errors="replace")
    problems = [*source_problems(user)]
    found = symbols.refused(files[UNDEFINED].decode(errors="replace").splitlines(), build)
    problems += [(rule, _symbol_message(rule, names)) for rule, names in sorted(found.items(), reverse=True)]
    if not problems:
        return None
    return _rejected(*problems[0], extra=[f"[{rule}] {message}" for rule, message in problems[1:]])


def source_problems(user: str) -> list[tuple[str, str]]:
    """Inline assembly and OpenMP thread-count clauses in the solution's preprocessed lines."""
    problems = []
    code = STRING.sub(lambda m: '""' + "\n" * m.group(0).count("\n"), user)
    asm = [shown.strip() for line, shown in zip(code.splitlines(), user.splitlines()) if INLINE_ASM.search(line)]
    if asm:
        problems.append(("native_asm", f"inline assembly is not allowed (it hides calls from the symbol check): "
                                       f"{asm[0][:120]}"))
    if THREAD_COUNT.search(code):
        problems.append(("native_escape", "an OpenMP num_threads(...) clause changes the thread count; the harness "
                                          "sets it (--threads)"))
    return problems


def _symbol_message(rule: str, names: list[str]) -> str:
    shown = ", ".join(names[:MAX_NAMED]) + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else "")
    if rule == "native_framework_call":
        return (f"native code calls the framework: {shown}; compute in your kernel (allowed from torch: data_ptr, "
                "sizes and strides, empty/empty_like/zeros, contiguous, TORCH_CHECK)")
    return (f"native code calls {shown}: threads, processes, files, signals, clocks, syscalls and the environment "
            "are off limits (allowed: libm, memcpy/memset/memmove, malloc/free, the OpenMP runtime, C++ runtime "
            "basics)")


def _rejected(rule: str, message: str, extra: Sequence[str] = ()) -> BuildOutcome:
    detail = "\n".join([f"[{rule}] {message}", *extra])
    return BuildOutcome(ok=False, rejected=True, error=f"native check failed:\n{detail}")
