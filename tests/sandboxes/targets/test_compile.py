"""Compiling in the sandbox: trimmed errors, flag allow-list, and the cache in front of g++."""

import pytest

from sandboxes.targets.base import ExtensionSpec
from sandboxes.base import RunResult
from sandboxes.targets.compile import CachedBuilder, check_flags, outcome_of, trim_compiler_errors

GOOD = 'extern "C" void twice(float* out, const float* x, long n) { for (long i = 0; i < n; ++i) out[i] = 2 * x[i]; }'
BAD = 'extern "C" void twice(float* out) { out[0] = undefined_name; }'


def spec(source: str) -> ExtensionSpec:
    return ExtensionSpec(kind="cpp", name="twice", cpp_sources=(source,), functions=("twice",),
                         options={"functions": {"twice": ["tensor", "tensor", "int"]}})


def test_trim_keeps_error_lines_and_drops_paths():
    noise = "\n".join(f"In file included from /usr/include/c++/12/bits/x{i}.h:1," for i in range(50))
    text = noise + "\n/tmp/work/build/kernel.cpp:3:5: error: 'foo' was not declared in this scope\n    3 | foo();\n"
    trimmed = trim_compiler_errors(text)
    assert "kernel.cpp:3:5: error: 'foo' was not declared" in trimmed
    assert "/tmp/work" not in trimmed and "bits/x1.h" not in trimmed


def test_trim_caps_length():
    assert len(trim_compiler_errors("error: x\n" * 2000, max_chars=300)) < 350


def test_flag_allow_list():
    assert check_flags(ExtensionSpec(kind="cpp", name="a", extra_cflags=("-O3", "-fopenmp", "-march=native"))) == ""
    assert "not allowed" in check_flags(ExtensionSpec(kind="cpp", name="a", extra_cflags=("-o/etc/passwd",)))
    assert "not allowed" in check_flags(ExtensionSpec(kind="cpp", name="a", extra_ldflags=("@/etc/shadow",)))


@pytest.mark.parametrize("flag", ["-O2 -wrapper sh,-c,id", "-DX=$(id)", "-O2;id", "-D'X'", "-fplugin=/tmp/p.so",
                                  "-Wl,--wrap=memcpy", "-Xcompiler=-wrapper,sh", "-Wl,-O1,-B/tmp",
                                  "-fopt-info-all=user.i", "-fdump-tree-all", "-Xcompiler=-fdump-rtl-all=x",
                                  "-fprofile-generate=/tmp", "-fdirectives-only", "-Wp,-fdirectives-only",
                                  "-l:libc.a", "-l/usr/lib/libc.a", "-Wl,@/tmp/options", "-Wa,@opts",
                                  "-Wl,-f/tmp/filter.so", "-finput-charset=IBM1047",
                                  "-Xcompiler=-finput-charset=UTF-16", "-ftree-parallelize-loops=2", "-fopenacc",
                                  "-Xcompiler=-ftree-parallelize-loops=8",
                                  "-Wl,/usr/lib/gcc/x86_64-linux-gnu/12/libstdc++.a", "-Wl,-lm,payload.o"])
def test_flags_cannot_smuggle_options_past_the_allow_list(flag):
    """load_inline's ninja file is split by a shell, and -Wl,/-Xcompiler forward options to other tools."""
    assert "not allowed" in check_flags(ExtensionSpec(kind="load_inline", name="a", extra_cuda_cflags=(flag,)))


def test_include_paths_cannot_smuggle_options_either():
    spec = ExtensionSpec(kind="load_inline", name="a", options={"extra_include_paths": ["/x -wrapper sh,-c,id"]})
    assert "not allowed" in check_flags(spec)
    assert check_flags(ExtensionSpec(kind="load_inline", name="a", options={"extra_include_paths": ["inc/v1.2"]})) == ""


@pytest.mark.parametrize("function", ['f), 0);\n#line 1 "/usr/include/stdlib.h"\nvoid g() { asm("nop"); }\nvoid h(', "f g",
                                      "f;", "\u00e9t\u00e9"])
def test_exported_function_names_cannot_carry_source(function):
    """torch pastes each name into main.cpp's bindings: a name could bring a #line and code past every check."""
    error = check_flags(ExtensionSpec(kind="load_inline", name="a", functions=(function,)))
    assert "function name" in error and "not allowed" in error
    assert check_flags(ExtensionSpec(kind="load_inline", name="a", functions=("relu_f32", "ops::scale"))) == ""


def test_plain_and_forwarded_allowed_flags_still_pass():
    flags = ("-O3", "--use_fast_math", "-Xcompiler=-fopenmp", "-Wl,-O1", "-gencode=arch=compute_80,code=sm_80",
             "--ptxas-options=-v", "-DTILE=128", "-lcublas", "-lgomp", "-fno-math-errno", "-ffp-contract=fast")
    assert check_flags(ExtensionSpec(kind="load_inline", name="a", extra_cuda_cflags=flags)) == ""


def test_build_in_sandbox_then_from_cache(sandbox, fresh_cache):
    builder = CachedBuilder("cpu", ["g++"], fresh_cache)
    first = builder.build(spec(GOOD), sandbox)
    assert first.ok and not first.cached, first.error
    second = builder.build(spec(GOOD), sandbox)
    assert second.ok and second.cached
    digest = spec(GOOD).digest(builder.salt)
    assert (fresh_cache.root / digest / "lib.so").read_bytes()[:4] == b"\x7fELF"


def test_compile_error_is_trimmed_and_cached(sandbox, fresh_cache):
    builder = CachedBuilder("cpu", ["g++"], fresh_cache)
    outcome = builder.build(spec(BAD), sandbox)
    assert not outcome.ok
    assert "undefined_name" in outcome.error and "was not declared" in outcome.error
    assert builder.build(spec(BAD), sandbox).cached


ATEN = ('namespace at { class Tensor; Tensor& relu_(Tensor& self); }\nnamespace A = at;\n'
        'extern "C" void twice(float* out, const float* x, long n) { if (n < 0) A::relu_(*(A::Tensor*)out); }')


def test_a_build_the_native_check_refuses_is_cached_as_a_verdict_without_a_library(sandbox, fresh_cache):
    builder = CachedBuilder("cpu", ["g++"], fresh_cache)
    outcome = builder.build(spec(ATEN), sandbox)
    assert not outcome.ok and outcome.rejected
    assert "[native_framework_call]" in outcome.error and "at::relu_" in outcome.error
    again = builder.build(spec(ATEN), sandbox)
    assert again.cached and again.rejected
    assert not (fresh_cache.root / spec(ATEN).digest(builder.salt) / "lib.so").exists()


ASM_WITHOUT_PIE = ('#ifndef __PIE__\n#define EXTRA asm volatile("nop");\n#else\n#define EXTRA\n#endif\n'
                   'extern "C" void twice(float* out, const float* x, long n) { EXTRA out[0] = x[0] * n; }')
FORGED_LINES = '#line 1 "/usr/include/stdlib.h"\n#define EXTRA asm volatile("nop");\n' + GOOD.replace("{", "{ EXTRA", 1)


def test_the_checked_preprocessing_takes_the_build_flags(sandbox, fresh_cache):
    """-fPIC undefines __PIE__: asm behind #ifndef __PIE__ is in the build, so it must be in the checked text."""
    outcome = CachedBuilder("cpu", ["g++"], fresh_cache).build(spec(ASM_WITHOUT_PIE), sandbox)
    assert not outcome.ok and "[native_asm]" in outcome.error


def test_a_source_that_renames_its_lines_is_refused_before_the_build(sandbox, fresh_cache):
    """#line would make its code look like a system header's to the check (it was built and passed before)."""
    outcome = CachedBuilder("cpu", ["g++"], fresh_cache).build(spec(FORGED_LINES), sandbox)
    assert not outcome.ok and outcome.rejected and "line directives" in outcome.error


def test_the_cache_salt_names_the_native_check_version():
    from sandboxes.targets.native_check import check_version

    assert f"check:{check_version()}" in CachedBuilder("cpu", ["g++"]).salt


@pytest.mark.parametrize("result", [
    RunResult(returncode=1, stdout="", stderr="c++filt: error while loading shared libraries: libz.so.1: cannot open "
                                              "shared object file: Error 23"),
    RunResult(returncode=1, stdout="", stderr="OSError: [Errno 23] Too many open files in system: 'g++'"),
    RunResult(returncode=-9, stdout="", stderr=""),
    RunResult(returncode=1, stdout="", stderr="", timed_out=True),
    RunResult(returncode=1, stdout="", stderr="", oom_killed=True),
    RunResult(returncode=1, stdout="", stderr="", sandbox_error="the runner died"),
], ids=["shared-library", "file-table", "signal", "timeout", "oom", "sandbox"])
def test_a_failure_of_the_machines_making_is_not_cached(result, fresh_cache):
    """A red-team job filled the host's file table: the project's own honest kernel failed to build and was cached
    as a compile error for every later run."""
    class Builder(CachedBuilder):
        def compile(self, spec, digest, sandbox):
            return outcome_of(result, 1.0, "g++"), {}

    builder = Builder("cpu", ["g++"], fresh_cache)
    assert builder.build(spec(GOOD), None).transient
    assert fresh_cache.lookup(spec(GOOD).digest(builder.salt)) is None
    assert not outcome_of(RunResult(returncode=1, stdout="", stderr="kernel.cpp:1:5: error: 'x' was not declared"),
                          1.0, "g++").transient
