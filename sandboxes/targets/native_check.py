"""Native code judged by the compiler: the build keeps its own preprocessed source, lists the built
object's undefined symbols and its instructions, inside the sandbox; the host then refuses inline
assembly, OpenMP thread-count clauses, any symbol off :mod:`sandboxes.targets.symbols`, and system-call
and clock-read instructions. A source that renames its own lines (``#line``) is refused before the build.

The sandbox returns three small files: ``user.i`` (the preprocessed lines that come from anywhere but
a trusted include directory, macros expanded, comments gone), ``undefined.txt`` (``nm -u`` names,
demangled without parameters) and ``instructions.txt`` (refused mnemonics found by ``objdump -d``,
counted). A rejected build is not cached as loadable: only its verdict is stored.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from pathlib import Path
from typing import Mapping, Sequence

from sandboxes.targets import directives, symbols
from sandboxes.targets.base import BuildOutcome
from sandboxes.targets.inline_build import GLUE_MARK, KEPT_CPP

USER_LINES = "user.i"
UNDEFINED = "undefined.txt"
INSTRUCTIONS = "instructions.txt"
WRITABLE = "writable.txt"
PROBE_FILES = (USER_LINES, UNDEFINED, INSTRUCTIONS, WRITABLE)
SYSTEM_CALLS = ("syscall", "sysenter", "int", "svc")
CLOCK_READS = ("rdtsc", "rdtscp", "rdpid", "rdpmc", "cntvct_el0", "cntpct_el0", "pmccntr_el0")
REFUSED_INSTRUCTIONS = SYSTEM_CALLS + CLOCK_READS
ROOTS = "trusted-include-dirs.txt"
SEARCH_LIST = ("g++ -E -x c++ -v - < /dev/null 2>&1 >/dev/null | sed -n '/search starts here:/,/End of search list/p' "
               "| sed -n 's/^ \\(\\/.*\\)$/\\1/p'")
"""Shell: the compiler's own include directories, one per line."""
UNTRUSTED_LINES = r"""
function norm(path,    count, part, depth, i, out) {
    count = split(path, part, "/"); depth = 0
    for (i = 1; i <= count; i++) {
        if (part[i] == "" || part[i] == ".") continue
        if (part[i] == "..") { if (depth > 0) depth--; continue }
        kept[++depth] = part[i]
    }
    out = ""; for (i = 1; i <= depth; i++) out = out "/" kept[i]
    return out
}
BEGIN { while ((getline line < roots) > 0) if (substr(line, 1, 1) == "/") root[norm(line) "/"] = 1 }
/^# [0-9]+ "/ {
    name = $0; sub(/^# [0-9]+ "/, "", name); sub(/"( [1-4])*$/, "", name)
    keep = (name !~ /^</)
    if (keep && substr(name, 1, 1) == "/") { path = norm(name); for (r in root) if (index(path, r) == 1) keep = 0 }
    next
}
keep
"""
"""awk: the lines of a preprocessed file whose line markers name no file under a trusted include directory
(paths normalised as written: a header is trusted by where it lies, not by its name)."""
STRING = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
INLINE_ASM = re.compile(r"\b(?:asm|__asm|__asm__)\b")
THREAD_COUNT = re.compile(r"^\s*#\s*pragma\s+omp\b.*(?:\b(?:num_threads|num_teams|thread_limit)\s*\(|\bteams\b|"
                          r"\btarget\b)", re.MULTILINE)
"""Thread-count clauses, teams, and target regions (whose host fallback starts a fresh OpenMP context that takes its
thread count from the environment, not from the worker's setting)."""
OPENMP_ENTRY = re.compile(r"\w*(?:GOMP|GOACC|__kmpc)_\w+")
"""The OpenMP runtime's entry points (``GOMP_parallel``, ``__builtin_GOMP_parallel``, ``__kmpc_fork_call``): the
compiler emits calls to them for the pragmas; a source that names one sets the team size itself."""
PYTHON_API = re.compile(r"\b\w*(?:Py[A-Z_]|pybind11|THP[A-Z])\w*|\bpy\s*::")
"""Python C API names (``PyEval_GetBuiltins``, ``Py_IncRef``, ``_PyObject_...``), pybind11 and its ``py::`` alias
(torch's headers declare it), torch's Python bindings (``THPVariable_Wrap``) and ``getPyInterpreter``."""
TENSOR_INTERNALS = re.compile(r"\b\w*(?:TensorImpl|StorageImpl|BackendMeta|ExtraMeta|IntrusivePtr|intrusive_ptr|"
                              r"unsafeGet|unsafeRelease)\w*|\b(?:weak_)?use_count\b|"
                              r"\b_?set_(?:stride|sizes\w*|storage\w*|backend_meta|data_ptr\w*|neg|conj)\b")
"""A tensor's implementation object, its storage and metadata setters: through them C++ gave an output negative
strides (a transpose left to the untimed hand-over) or hooked work onto the output's detach (a BackendMeta clone).
And its reference counts: the tripwire's Python wrapper holds one more reference to a fresh tensor, so
``torch::empty({1}).use_count()`` told a traced call from a timed one (ATen's transpose ran only when timed)."""
LOOKUP_NAMES = re.compile(r"\b_?Py[A-Z][A-Za-z]*_[A-Z]\w*|\b(?:dlsym|dlvsym|dlopen|dlmopen|dl_iterate_phdr)\b")
"""What a string may not name: a Python C API function or the dynamic loader's look-ups (the name a symbol is
looked up by at run time, out of the symbol check's sight)."""
ELF_WALK = re.compile(r"\bElf(?:32|64)_\w+|\bElfW\b|\b(?:link_map|r_debug|dl_phdr_info|dl_iterate_phdr|_DYNAMIC|"
                      r"__ehdr_start|dlsym|dlvsym|dlopen|dlmopen|dladdr\w*)\b")
"""Reading the process's ELF tables: resolving a function (libtorch's SGEMM, the Python C API) at run time
from the address of an allowed one, which no undefined symbol shows."""
DISPATCH_CONTROL = re.compile(r"\b\w*(?:DispatchKey|DispatchKeySet|DispatchKeyGuard|AutoDispatchBelow|"
                              r"AutoNonVariableTypeMode|dispatch_key_set|dispatch_key_excluded|dispatch_key_included)\w*")
"""The dispatcher's keys and guards: under ``ExcludeDispatchKeyGuard(Python)`` ATen calls skip the runtime tripwire
(a transpose by ATen's reordering copy passed as the solution's kernel)."""
ATEN_KERNELS = re.compile(r"\bnative\s*::|\bat\s*::\s*native\b|\bnamespace\s+(?:native|at|c10|torch|caffe2)\b")
"""ATen's own kernels: its headers define them as templates (``at::native::serial_vec_log_softmax_lastdim_range``),
so a solution that includes one compiles the framework's kernel into its object, with no undefined symbol and no
dispatcher call for the checks to see. However spelled: ``native::`` inside a reopened ``namespace at``, after
``using namespace at``; and a solution may not reopen the framework's namespaces at all."""
TOOLCHAIN_DATA = frozenset({"completed.0", "__frame_dummy_init_array_entry", "__dso_handle", "__TMC_END__",
                            "__do_global_dtors_aux_fini_array_entry", "_GLOBAL_OFFSET_TABLE_", "_DYNAMIC", "_end",
                            "_edata", "__bss_start"})
"""Data every shared object has (the C runtime's start files and the linker's)."""
LIBRARY_DATA = re.compile(r"(?:typeinfo (?:name )?for|vtable for|VTT for|construction vtable for) |DW\.ref\.|"
                          r"(?:guard variable for )?pybind11::|std::__ioinit$|"
                          r"std::__detail::__to_chars_10_impl<[\w ]+>\(.*\)::__digits$|"
                          r"(?:guard variable for )?PyInit_ak_[0-9a-f]+::(?:def|mod_def_slots)$|\.gomp_critical_user_")
"""Read-only type data, the pybind11 glue's statics (a solution's lines may not name pybind11), iostream's
initialiser, to_chars's digit table, load_inline's module definition and OpenMP's critical-section locks. Nothing
else in a library's namespace: a template instantiated in the solution's object keeps its static members there
(``std::numpunct<int>::id`` held a pointer to a matrix decoded on the first call, correct at 3x the honest kernel)."""
STD_NAMESPACES = re.compile(r"(?:^|[;{}])\s*(?:inline\s+)?namespace\s+(?:std|__gnu_cxx|__cxxabiv1)\b|"
                            r"\b(?:struct|class|union)\s+(?:::\s*)?(?:std|__gnu_cxx|__cxxabiv1|c10|at|torch|caffe2)\s*::",
                            re.MULTILINE)
"""Reopening the standard library's namespaces, or defining a class in a library's (``template <> struct
std::hash<Mine> { static inline long calls; }``): data defined there would pass for the library's own."""
LIBRARY_STATE = re.compile(r"\b(?:stderr|stdout|stdin|FILE|_IO_\w+|errno|__errno_location|__libc_single_threaded|"
                           r"xalloc|iword|pword|cout|cerr|clog|cin|wcout|wcerr|wclog|wcin|environ|__environ)\b")
"""The C and C++ libraries' own writable objects: a pointer to a matrix decoded on the first call was kept in the
unused bytes of ``stderr``'s ``FILE`` (load_inline builds link ``stderr`` for their error printing), where neither
the data-symbol check nor the own-tensor check looks; ``errno``, the streams' words and ``xalloc``'s counter keep
numbers between calls the same way."""
FRAMEWORK = "native_framework_call"
FORBIDDEN_NAMES = (
    ("stateful", LIBRARY_STATE, "code", "the C or C++ library's global objects",
     "a kernel keeps nothing between calls and prints nothing; report errors with TORCH_CHECK"),
    (FRAMEWORK, PYTHON_API, "code", "the Python C API or pybind11 objects",
     "a kernel takes and returns tensors; let load_inline(functions=[...]) bind it (no PYBIND11_MODULE of your own)"),
    (FRAMEWORK, TENSOR_INTERNALS, "code", "a tensor's internals",
     "a kernel reads data_ptr(), sizes() and strides(); it may not reach or change a tensor's implementation, "
     "storage or metadata"),
    (FRAMEWORK, DISPATCH_CONTROL, "code", "the dispatcher's keys or guards",
     "a kernel computes itself; the dispatcher's state is the verifier's"),
    (FRAMEWORK, ATEN_KERNELS, "code", "ATen's own kernels (native::) or the framework's namespaces",
     "a kernel computes itself; a kernel of ATen's compiled in from its headers is the framework's compute"),
    (FRAMEWORK, ELF_WALK, "code", "the loader's or ELF tables",
     "a kernel calls only its own code and the allowed runtime"),
    (FRAMEWORK, STD_NAMESPACES, "code", "a reopened library namespace or a class defined in one",
     "define your code, specialisations included, in your own namespace"),
    (FRAMEWORK, LOOKUP_NAMES, "strings", "a symbol name to look up",
     "a kernel calls only its own code and the allowed runtime"),
)
"""(rule, pattern, where it is looked for: the code or its string literals, what it names, what to do instead)."""
FILE_MARK = "agentkiln_file_"
ATTRIBUTES = re.compile(r"__attribute__\s*\(\(.*?\)\)|\[\[.*?\]\]", re.DOTALL)
BINDING = re.compile(r"\b_*(?:weakref|alias|ifunc|symver)_*\b")
WEAK_PRAGMA = re.compile(r"#\s*pragma\s+(?:weak|redefine_extname)\b")
"""``weakref("GOMP_" "parallel")``, ``alias``, ``ifunc``, ``symver`` and ``#pragma weak`` make a name of the source's
own call another symbol, so the entry-point search below cannot be the only guard."""
ADJACENT_STRINGS = re.compile(r'"\s*(?:u8|u|U|L)?"')
"""Between two adjacent string literals: the compiler joins ``"GOMP_" "parallel"`` into one."""
MAX_NAMED = 8


def check_version() -> str:
    """Identity of the native checks (part of the build cache's salt: a cached build was checked by these rules)."""
    digest = hashlib.sha256()
    rules = (symbols.__file__, directives.__file__, __file__, Path(__file__).with_name("compile.py"))  # + flag rules
    for module in rules:
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()[:12]


def probe_script(build: Sequence[Sequence[str]], kept: Sequence[str], artifact: str,
                 trusted: Sequence[str] = (), marker: str = "") -> str:
    """A shell script that runs the ``build`` commands and leaves ``user.i``, ``undefined.txt`` and
    ``instructions.txt``. The checked text is the build's own preprocessed output (``kept``: shell globs of
    the files ``-save-temps`` or nvcc ``--keep`` left), so no flag, define or file can make the compiled code
    differ from the checked one. Of that text every line is checked except those of headers under a trusted
    include directory (the compiler's own search list, plus ``trusted``): a second file of the work dir, a
    header reached through /proc, a relative path, all count as the solution's. With a ``marker`` (the host's
    nonce of this build) each file's lines start with a ``FILE_MARK<marker> <file>`` line."""
    roots = " ".join(shlex.quote(path) for path in trusted)
    lines = [shlex.join(step) for step in build] + [f": > {USER_LINES}",
                                                    f"{{ {SEARCH_LIST}; printf '%s\\n' {roots}; }} > {ROOTS}"]
    for pattern in kept:
        missing = shlex.quote(f"the build left no preprocessed {pattern} to check")
        separator = f'echo "{FILE_MARK}{marker} $f" >> {USER_LINES}; ' if marker else ""
        lines.append(f'for f in {pattern}; do [ -s "$f" ] || {{ echo {missing} >&2; exit 1; }}; {separator}'
                     f'awk -v roots={ROOTS} {shlex.quote(UNTRUSTED_LINES)} "$f" >> {USER_LINES}; done')
    quoted = shlex.quote(artifact)
    lines.append(f"nm -u {quoted} | awk '{{print $NF}}' | sed 's/@.*//' | c++filt -p > {UNDEFINED}")
    lines.append(f"objdump -d --no-show-raw-insn {quoted} | awk -F'\\t' {shlex.quote(_instruction_filter())} "
                 f"| sort | uniq -c > {INSTRUCTIONS}")
    lines.append(f"nm -C --defined-only {quoted} | awk '$2 ~ /^[bBdDuvVsSgGC]$/ {{ $1 = \"\"; $2 = \"\"; "
                 f"sub(/^ +/, \"\"); print }}' > {WRITABLE}")
    return "set -e\n" + "\n".join(lines)


def _instruction_filter() -> str:
    """awk over objdump's lines: print each refused mnemonic or operand word of an instruction."""
    words = "|".join(REFUSED_INSTRUCTIONS)
    return f'NF > 1 {{ n = split($2, w, /[ ,]+/); for (i = 1; i <= n; i++) if (w[i] ~ /^({words})$/) print w[i] }}'


def line_control_refusal(sources: Sequence[str]) -> BuildOutcome | None:
    """A rejection when a source renames its own lines (``#line``, GNU line markers): the check tells the
    solution's lines from the headers' by their line markers, which such a directive would forge."""
    found = [text for source in sources for text in directives.line_controls(source)]
    if not found:
        return None
    return _rejected("native_escape", f"line directives are not allowed (they would hide code from the native "
                                      f"check): {found[0][:80]}")


def judge(files: Mapping[str, bytes], build: str, marker: str = "") -> BuildOutcome | None:
    """A rejected outcome when the probe's files show inline assembly, a thread-count clause, the Python C API,
    a system-call or clock-read instruction or a refused symbol; None when the build passes (no probe is a
    rejection). ``marker``: the nonce of a load_inline build (see :func:`forbidden_names`)."""
    if not all(name in files for name in PROBE_FILES):
        return _rejected("native_escape", "the build left no preprocessed source or symbol list to check")
    user = files[USER_LINES].decode(errors="replace")
    problems = [*source_problems(user), *forbidden_names(user, marker)]
    problems += instruction_problems(files[INSTRUCTIONS].decode(errors="replace"))
    found = symbols.refused(files[UNDEFINED].decode(errors="replace").splitlines(), build)
    problems += [(rule, _symbol_message(rule, names)) for rule, names in sorted(found.items(), reverse=True)]
    if build != "cuda":  # nvcc's own host stubs keep writable data; a CUDA build is only compiled here
        problems += state_problems(files[WRITABLE].decode(errors="replace"))
    if not problems:
        return None
    return _rejected(*problems[0], extra=[f"[{rule}] {message}" for rule, message in problems[1:]])


def source_problems(user: str) -> list[tuple[str, str]]:
    """Inline assembly, OpenMP thread-count clauses and OpenMP runtime entry points in the solution's
    preprocessed lines."""
    problems = []
    code = STRING.sub(lambda m: '""' + "\n" * m.group(0).count("\n"), user)
    asm = [shown.strip() for line, shown in zip(code.splitlines(), user.splitlines()) if INLINE_ASM.search(line)]
    if asm:
        problems.append(("native_asm", f"inline assembly is not allowed (it hides calls from the symbol check): "
                                       f"{asm[0][:120]}"))
    if THREAD_COUNT.search(code):
        problems.append(("native_escape", "an OpenMP num_threads(...), num_teams(...) or thread_limit(...) clause, or "
                                          "a teams or target construct, changes the thread count; the harness sets "
                                          "it (--threads)"))
    binding = next((m for m in ATTRIBUTES.finditer(code) if BINDING.search(m.group(0))), None)
    if binding or WEAK_PRAGMA.search(code):
        shown = binding.group(0) if binding else WEAK_PRAGMA.search(code).group(0)
        problems.append(("native_escape", f"symbol binding attributes and pragmas are not allowed (they bind a name of "
                                          f"yours to another symbol, out of the symbol check's sight): {shown[:120]}"))
    entry = OPENMP_ENTRY.search(ADJACENT_STRINGS.sub("", user))  # in strings too, joined as the compiler joins them
    if entry:
        problems.append(("native_escape", f"{entry.group(0)} is the OpenMP runtime's own entry point (called "
                                          "directly it sets its own thread count); use the pragmas, the harness "
                                          "sets the threads (--threads)"))
    return problems


def forbidden_names(user: str, marker: str = "") -> list[tuple[str, str]]:
    """Names the solution's own lines may not use (:data:`FORBIDDEN_NAMES`): the Python C API and tensor internals.
    The symbol check cannot refuse the first in a load_inline build (its generated binding code needs the same
    symbols), and the second are mostly inline (no symbol at all). In main.cpp, what follows the glue mark
    (:data:`sandboxes.targets.inline_build.GLUE_MARK` and this build's nonce) is that generated code; a file
    without the mark is the solution's throughout."""
    for chunk in user.split(f"{FILE_MARK}{marker} ")[1:] if marker else [user]:
        if chunk.split("\n", 1)[0].endswith(KEPT_CPP):
            chunk = chunk.split(f"{GLUE_MARK}{marker}")[0]
        code = STRING.sub('""', chunk)
        texts = "\n".join(m.group(0) for m in STRING.finditer(ADJACENT_STRINGS.sub("", chunk)))
        for rule, pattern, where, what, instead in FORBIDDEN_NAMES:
            found = pattern.search(texts if where == "strings" else code)
            if found:
                return [(rule, f"native code uses {what} ({found.group(0)}): {instead}")]
    return []


def state_problems(listing: str) -> list[tuple[str, str]]:
    """Writable global or static data the built code defines (``nm --defined-only`` names of data symbols), other
    than the toolchain's own and the libraries' (:data:`TOOLCHAIN_DATA`, :data:`LIBRARY_DATA`): a static kept a
    matrix decoded on the first call and served it to every later one (2.6x on macko_spmv), an output buffer or a
    call count."""
    names = [name for name in (line.strip() for line in listing.splitlines())
             if name and name not in TOOLCHAIN_DATA and not LIBRARY_DATA.match(name)]
    if not names:
        return []
    return [("stateful", f"the built code keeps writable global or static data ({', '.join(names[:MAX_NAMED])}): a "
                         "kernel may not keep state between calls; use const or constexpr tables, and tensors the "
                         "forward pass allocates")]


def instruction_problems(listing: str) -> list[tuple[str, str]]:
    """System calls and clock reads among the built code's instructions (``uniq -c`` lines of mnemonics):
    they need no symbol (an intrinsic such as ``__rdtsc()`` is neither a call nor inline assembly)."""
    counts = {word: int(count) for count, word in (line.split() for line in listing.splitlines() if line.strip())}
    problems = []
    calls = [name for name in SYSTEM_CALLS if name in counts]
    if calls:
        problems.append(("native_escape", f"the built code makes system calls itself ({', '.join(calls)} "
                                          "instructions); native code may not"))
    clocks = [name for name in CLOCK_READS if name in counts]
    if clocks:
        problems.append(("native_escape", f"the built code reads a hardware clock ({', '.join(clocks)}); the "
                                          "harness does the timing"))
    return problems


def _symbol_message(rule: str, names: list[str]) -> str:
    shown = ", ".join(names[:MAX_NAMED]) + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else "")
    if rule == "native_framework_call":
        return (f"native code calls the framework: {shown}; compute in your kernel (allowed from torch: data_ptr, "
                "sizes and strides, empty/empty_like/zeros, view, TORCH_CHECK; make inputs contiguous in forward)")
    return (f"native code calls {shown}: threads, processes, files, signals, clocks, syscalls and the environment "
            "are off limits (allowed: libm, memcpy/memset/memmove, malloc/free, the OpenMP runtime, C++ runtime "
            "basics)")


def _rejected(rule: str, message: str, extra: Sequence[str] = ()) -> BuildOutcome:
    detail = "\n".join([f"[{rule}] {message}", *extra])
    return BuildOutcome(ok=False, rejected=True, error=f"native check failed:\n{detail}")
