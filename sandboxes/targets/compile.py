"""Compiling extension specs inside a sandbox, with trimmed errors and the source-hash cache."""

from __future__ import annotations

import json
import platform
import re
import secrets
import shutil
import subprocess
import sys
import sysconfig
import time
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from sandboxes.base import Limits, RunResult, Sandbox
from sandboxes.targets.base import BuildOutcome, ExtensionSpec
from sandboxes.targets.cache import BuildCache
from sandboxes.targets.inline_build import KEPT_CPP, KEPT_CUDA_DIR
from sandboxes.targets.native import artifact_name, inline_module_name
from sandboxes.targets.native_check import PROBE_FILES, check_version, judge, line_control_refusal, probe_script
from sandboxes.targets.snapshot import code_snapshot
from sandboxes.telemetry import emit

ALLOWED_FLAG_PREFIXES = ("-O", "-f", "-m", "-D", "-U", "-std=", "-W", "-g", "-l", "--use_fast_math", "-Xcompiler",
                         "--expt", "-lineinfo", "-arch", "-gencode", "--ptxas-options", "-ffast-math")
REFUSED_FLAG_PREFIXES = ("-fplugin",
                         # flags that make the compiler write or read files of its own (dumps, remarks, profiles,
                         # LTO parts): a file written by the build could answer a __has_include or replace a probe file
                         "-fdump", "-fopt-info", "-fprofile", "-fauto-profile", "-fstack-usage", "-fcallgraph-info",
                         "-fsave-optimization-record", "-fdiagnostics-format", "-fdiagnostics-add-output",
                         "-fdiagnostics-set-output", "-fcompare-debug", "-flto", "-fltrans", "-fwpa",
                         # flags under which the checked preprocessing does not show the code that is compiled,
                         # or the compiler reads the source's bytes as other characters than the checks do
                         "-fdirectives-only", "-fpreprocessed", "-finput-charset",
                         # flags that make the compiler start threads the source never asks for (auto-parallelised
                         # loops with a fixed team, OpenACC regions): the thread rules read the source and its pragmas
                         "-ftree-parallelize-loops", "-fopenacc")
FORWARDING_PREFIXES = ("-Wl,", "-Wa,", "-Wp,", "-Xcompiler=", "-Xcompiler,", "-Xlinker=", "-Xlinker,")
LINKER_FORWARDING = ("-Wl,", "-Xlinker=", "-Xlinker,")
PLAIN_FLAG = re.compile(r"[\w+=.,:/-]+")
LIBRARY = re.compile(r"-l[\w+.-]+")  # a library by name: -l:FILE or a path could link a static libc past nm -u
FUNCTION_NAME = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*", re.ASCII)
MAX_ERROR_CHARS = 2500


def compile_limits(wall_s: float = 600.0, readonly: Sequence[str] = ()) -> Limits:
    """Generous limits for a compiler run (g++ on torch headers needs memory and minutes)."""
    return Limits(wall_s=wall_s, cpu_s=wall_s * 2, memory_mb=6144, pids=256, disk_mb=1024,
                  output_bytes=2_000_000, cpus=2.0, extra_ro_paths=list(readonly))


@lru_cache(maxsize=None)
def compiler_identity(compiler: str) -> str:
    """First line of ``compiler --version`` (part of the cache salt), or '' when it is missing."""
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = [line for line in out.splitlines() if line.strip()]
    return lines[-1] if "nvcc" in compiler and lines else (lines[0] if lines else "")


def toolchain_salt(target: str, compilers: Sequence[str]) -> str:
    """What besides the sources decides a build: target, compilers, torch, Python, CPU."""
    import torch

    cpu = _cpu_model()
    parts = [target, torch.__version__, sys.version.split()[0], platform.machine(), cpu, f"check:{check_version()}"]
    return "|".join(parts + [compiler_identity(c) for c in compilers])


@lru_cache(maxsize=1)
def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def check_flags(spec: ExtensionSpec) -> str:
    """An error message for a compiler flag outside the allow-list, an include path or an exported function
    name that is not plain, or ''."""
    for flag in (*spec.extra_cflags, *spec.extra_cuda_cflags, *spec.extra_ldflags):
        error = flag_error(flag) if flag else ""
        if error:
            return error
    for path in spec.options.get("extra_include_paths") or ():
        if not PLAIN_FLAG.fullmatch(path):
            return f"include path {path!r} is not allowed: a path is one word of letters, digits and - _ = + . , : /"
    for function in spec.functions:
        if not FUNCTION_NAME.fullmatch(function):
            return (f"function name {function!r} is not allowed: torch writes it into the module's C++ source, so it "
                    "must be a C++ identifier (ns::name allowed)")
    return ""


def flag_error(flag: str) -> str:
    """Why one flag is refused, or ''. torch's load_inline writes flags into a ninja file whose commands a shell
    splits, so a flag must be one word of plain characters; options it forwards to another tool (``-Wl,``,
    ``-Xcompiler=``) pass the same allow-list, and compiler plugins are refused."""
    if not PLAIN_FLAG.fullmatch(flag):
        return (f"compiler flag {flag!r} is not allowed: a flag is one word of letters, digits and - _ = + . , : / "
                "(no spaces, quotes or shell characters)")
    if not flag.startswith(ALLOWED_FLAG_PREFIXES) or flag.startswith(REFUSED_FLAG_PREFIXES):
        return f"compiler flag {flag!r} is not allowed (allowed prefixes: {' '.join(ALLOWED_FLAG_PREFIXES)})"
    if flag.startswith("-l") and not LIBRARY.fullmatch(flag):
        return f"compiler flag {flag!r} is not allowed: -l takes a library name, not a file (-l:FILE) or a path"
    forwarding = next((prefix for prefix in FORWARDING_PREFIXES if flag.startswith(prefix)), None)
    for part in flag[len(forwarding):].split(",") if forwarding else ():
        refused = part.startswith("@") or (part.startswith("-") and flag_error(part)) or (
            forwarding in LINKER_FORWARDING and (part.startswith("-f") or not part.startswith("-")))
        # @FILE: a response file; ld's -f: a filter; a word that is no option: an input file linked in by path
        # (any static archive or object of the machine, whose symbols nm -u never shows)
        if refused:
            return f"compiler flag {flag!r} is not allowed: it forwards {part!r}, which is not allowed"
    return ""


MACHINE_FAILURE = re.compile(r"error while loading shared libraries|Too many open files|Cannot allocate memory|"
                             r"No space left on device|Resource temporarily unavailable|\[Errno (?:11|12|23|24|28)\]|"
                             r"internal compiler error: Killed|fork: retry")
"""What a compiler, a tool or Python prints when the machine failed it (no files, memory, disk, processes): a
red-team job that filled the host's file table got the project's own honest kernels cached as compile errors."""


def trim_compiler_errors(text: str, context: int = 2, max_chars: int = MAX_ERROR_CHARS) -> str:
    """Keep the lines that name an error (plus a little context), drop build paths and noise."""
    lines = [re.sub(r"(/[\w.+-]+)+/(?=[\w.+-]+\.(cpp|cu|h|cuh|c):)", "", line) for line in text.splitlines()]
    keep: list[int] = []
    for index, line in enumerate(lines):
        if re.search(r"\berror\b|undefined reference|fatal", line, re.IGNORECASE):
            keep += range(index, min(index + context + 1, len(lines)))
    chosen = [lines[i] for i in sorted(set(keep))] if keep else lines[-15:]
    trimmed = "\n".join(line for line in chosen if not line.startswith(("[", "ninja:", "FAILED:")))
    return trimmed if len(trimmed) <= max_chars else trimmed[:max_chars] + "\n... (errors truncated)"


def outcome_of(result: RunResult, seconds: float, what: str) -> BuildOutcome:
    """A BuildOutcome from a compiler run: timeouts and OOM say so, errors are trimmed; a failure of the
    machine's making is transient (not cached)."""
    if result.timed_out:
        return BuildOutcome(ok=False, error=f"{what} timed out after {seconds:.0f} s", seconds=seconds, transient=True)
    if result.oom_killed:
        return BuildOutcome(ok=False, error=f"{what} ran out of memory", seconds=seconds, transient=True)
    if result.sandbox_error:
        return BuildOutcome(ok=False, error=f"{what} could not run: {result.sandbox_error}", seconds=seconds,
                            transient=True)
    if result.returncode != 0:
        output = result.stderr + "\n" + result.stdout
        return BuildOutcome(ok=False, error=trim_compiler_errors(output) or
                            f"{what} failed with exit code {result.returncode}", seconds=seconds,
                            transient=result.returncode < 0 or result.disk_full or bool(MACHINE_FAILURE.search(output)))
    return BuildOutcome(ok=True, seconds=seconds)


class CachedBuilder:
    """Cache lookup, flag check, build in the sandbox, store: shared by the cpu and gpu targets."""

    def __init__(self, target: str, compilers: Sequence[str], cache: BuildCache | None = None) -> None:
        self.target = target
        self.cache = cache or BuildCache()
        self.salt = toolchain_salt(target, compilers)

    def build(self, spec: ExtensionSpec, sandbox: Sandbox) -> BuildOutcome:
        """Return the cached outcome for ``spec`` or compile it now and cache the result."""
        digest = spec.digest(self.salt)
        cached = self.cache.lookup(digest)
        if cached is not None:
            return cached
        bad_flag = check_flags(spec)
        if bad_flag:
            return BuildOutcome(ok=False, error=bad_flag)
        forged_lines = line_control_refusal([*spec.cpp_sources, *spec.cuda_sources])
        if forged_lines is not None:
            return forged_lines
        started = time.perf_counter()
        outcome, files = self.compile(spec, digest, sandbox)
        outcome.seconds = time.perf_counter() - started
        emit("kernel.build", target=self.target, extension=spec.kind, digest=digest, ok=outcome.ok,
             rejected=outcome.rejected, seconds=outcome.seconds)
        if not outcome.transient:
            self.cache.store(digest, outcome, files)
        return outcome

    def compile(self, spec: ExtensionSpec, digest: str, sandbox: Sandbox) -> tuple[BuildOutcome, dict[str, bytes]]:
        """Compile one spec; subclasses handle the kinds they support."""
        if spec.kind == "cpp":
            return compile_cpp(spec, sandbox)
        if spec.kind == "load_inline":
            return compile_inline(spec, digest, sandbox, code_snapshot(self.cache.root, ("sandboxes",)))
        return BuildOutcome(ok=False, error=f"unknown extension kind {spec.kind!r}"), {}


def compile_cpp(spec: ExtensionSpec, sandbox: Sandbox) -> tuple[BuildOutcome, dict[str, bytes]]:
    """g++ -O3 -fopenmp -shared for a :func:`load_cpp` library; the native check reads the compile's own
    preprocessed source (kernel.ii) and the library's symbols and instructions."""
    flags = ["-O3", "-march=native", "-fopenmp", "-std=c++17", *spec.extra_cflags, "-fPIC"]
    build = [["g++", *flags, "-save-temps=obj", "-c", "kernel.cpp", "-o", "kernel.o"],
             ["g++", *flags, "-shared", "kernel.o", "-o", "lib.so"]]
    script = probe_script(build, ["kernel.ii"], "lib.so")
    started = time.perf_counter()
    result = sandbox.run(["sh", "-c", script], files={"kernel.cpp": "\n".join(spec.cpp_sources).encode()},
                         limits=compile_limits(120.0), collect=["lib.so", *PROBE_FILES])
    outcome = outcome_of(result, time.perf_counter() - started, "g++")
    return _with_artifact(outcome, result, "lib.so", "lib.so", "cpp")


def trusted_include_dirs() -> list[str]:
    """Include directories whose headers the native check trusts besides the compiler's own: torch's,
    Python's and the CUDA toolkit's (never a solution's extra_include_paths)."""
    from torch.utils.cpp_extension import include_paths

    nvcc = shutil.which("nvcc")
    cuda = [str(Path(nvcc).resolve().parent.parent)] if nvcc else []
    return [*include_paths(), sysconfig.get_paths()["include"], *cuda]


def torch_flags(spec: ExtensionSpec) -> list[str]:
    """Include paths and ABI define a torch extension compiles with (as load_inline passes them)."""
    import torch
    from torch.utils.cpp_extension import include_paths

    paths = [*include_paths(), sysconfig.get_paths()["include"], *spec.options.get("extra_include_paths", [])]
    return [f"-I{path}" for path in paths] + [f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}"]


def compile_inline(spec: ExtensionSpec, digest: str, sandbox: Sandbox,
                   code: Path) -> tuple[BuildOutcome, dict[str, bytes]]:
    """torch's own load_inline inside the sandbox (ninja + g++), collecting the built module; the native
    check reads the preprocessed main.cpp (and cuda.cu) that the build kept, and the module's symbols."""
    name, marker = inline_module_name(digest), secrets.token_hex(8)
    files = {"spec.json": json.dumps({"spec": spec.to_json(), "module": name, "marker": marker}).encode()}
    build = [[sys.executable, "-m", "sandboxes.targets.inline_build", "spec.json"]]
    kept = [f"build/{KEPT_CPP}", *([f"build/{KEPT_CUDA_DIR}/*.ii"] if spec.cuda_sources else [])]
    script = probe_script(build, kept, f"build/{name}.so", trusted_include_dirs(), marker)
    env = {"PYTHONPATH": str(code), "MAX_JOBS": "2", "TORCH_EXTENSIONS_DIR": "torch_extensions"}
    started = time.perf_counter()
    result = sandbox.run(["sh", "-c", script], files=files, env=env, limits=compile_limits(readonly=[str(code)]),
                         collect=[f"build/{name}.so", *PROBE_FILES])
    outcome = outcome_of(result, time.perf_counter() - started, "load_inline build")
    kind = "cuda" if spec.cuda_sources else "inline"
    return _with_artifact(outcome, result, f"build/{name}.so", artifact_name(spec, digest), kind, marker)


def _with_artifact(outcome: BuildOutcome, result: RunResult, collected: str, stored: str,
                   check: str, marker: str = "") -> tuple[BuildOutcome, dict[str, bytes]]:
    """The artifact to cache for a build that compiled and passed the native check ``check``."""
    if not outcome.ok:
        return outcome, {}
    verdict = judge(result.files, check, marker)
    if verdict is not None:
        verdict.seconds = outcome.seconds
        return verdict, {}
    data = result.files.get(collected)
    if not data:
        return BuildOutcome(ok=False, error=f"compiler reported success but produced no {collected}"), {}
    return outcome, {stored: data}
