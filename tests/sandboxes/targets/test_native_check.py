"""The native check: the probe script the sandbox runs, and the verdict on what it leaves behind."""

import subprocess

import pytest

from sandboxes.targets.native_check import (FILE_MARK, PROBE_FILES, instruction_problems, judge,
                                            line_control_refusal, probe_script, forbidden_names, source_problems)
from sandboxes.targets.inline_build import GLUE_MARK

GOOD = (b'extern "C" void f(float* o, const float* x, long n) {\n#pragma omp parallel for\n'
        b'for (long i = 0; i < n; ++i) o[i] = x[i]; }\n')


def probe(tmp_path, source: bytes) -> dict[str, bytes]:
    """Run the probe script for real (g++, awk, nm, c++filt, objdump) in a scratch folder; the source is
    compiled by its absolute path, as torch's ninja names it, so the line markers carry a path."""
    (tmp_path / "kernel.cpp").write_bytes(source)
    flags = ["-O2", "-fopenmp", "-std=c++17", "-fPIC"]
    build = [["g++", *flags, "-save-temps=obj", "-c", str(tmp_path / "kernel.cpp"), "-o", "kernel.o"],
             ["g++", *flags, "-shared", "kernel.o", "-o", "lib.so"]]
    script = probe_script(build, ["kernel.ii"], "lib.so")
    subprocess.run(["sh", "-c", script], cwd=tmp_path, check=True, capture_output=True)
    return {name: (tmp_path / name).read_bytes() for name in PROBE_FILES}


def test_probe_keeps_only_the_solutions_own_lines_and_lists_symbols(tmp_path):
    files = probe(tmp_path, b"#include <cmath>\n" + GOOD)
    user = files["user.i"].decode()
    assert "extern" in user and "#pragma omp parallel for" in user and "namespace std" not in user
    assert "GOMP_parallel" in files["undefined.txt"].decode()
    assert judge(files, "cpp") is None


def test_asm_hidden_behind_a_macro_is_found_after_preprocessing(tmp_path):
    files = probe(tmp_path, b'#define HIDE __asm__\nextern "C" void f() { HIDE("nop"); }\n')
    verdict = judge(files, "cpp")
    assert verdict.rejected and "[native_asm]" in verdict.error and '__asm__("nop")' in verdict.error


def test_a_pasted_symbol_is_named_by_the_object(tmp_path):
    files = probe(tmp_path, b'#include <unistd.h>\n#define CAT(a, b) a##b\nextern "C" void f() { CAT(get, ppid)(); }\n')
    verdict = judge(files, "cpp")
    assert verdict.rejected and "[native_escape]" in verdict.error and "getppid" in verdict.error


def test_strings_and_comments_do_not_count_as_assembly():
    assert source_problems('const char* s = "asm volatile";\nconst char* r = R"(asm)";\n') == []
    assert [rule for rule, _ in source_problems("#pragma omp parallel for num_threads(64)\n")] == ["native_escape"]
    assert [rule for rule, _ in source_problems("#pragma omp teams num_teams(2)\n")] == ["native_escape"]
    assert [rule for rule, _ in source_problems("#pragma omp teams distribute parallel for\n")] == ["native_escape"]
    assert [rule for rule, _ in source_problems("#pragma omp target\n")] == ["native_escape"]
    assert source_problems("#pragma omp parallel for simd\nint steams = 1;\n") == []


@pytest.mark.parametrize("source", [
    'extern "C" void GOMP_parallel(void (*)(void*), void*, unsigned, unsigned);\n',
    'void f(void (*g)(void*)) { __builtin_GOMP_parallel(g, 0, 2, 0); }\n',
    'extern "C" void par(void (*)(void*), void*, unsigned, unsigned);\n#pragma redefine_extname par GOMP_parallel\n',
    'extern "C" void __kmpc_fork_call(void*, int, void*, ...);\n',
    'static void par(void (*)(void*), void*, unsigned, unsigned) __attribute__((weakref("GOMP_parallel")));\n',
])
def test_the_openmp_runtimes_entry_points_may_not_be_named(source):
    problems = source_problems(source)
    assert {rule for rule, _ in problems} == {"native_escape"} and any("GOMP_" in m or "__kmpc" in m for _, m in problems)


def test_a_pasted_openmp_entry_point_is_found_after_preprocessing(tmp_path):
    files = probe(tmp_path, b'#define CAT(a, b) a##b\nstatic void g(void*) {}\n'
                            b'extern "C" void f() { CAT(__builtin_GO, MP_parallel)(g, 0, 2, 0); }\n')
    verdict = judge(files, "cpp")
    assert verdict.rejected and "__builtin_GOMP_parallel is the OpenMP runtime" in verdict.error


def test_a_build_that_left_no_probe_is_refused():
    assert judge({}, "cpp").rejected


def test_a_clock_intrinsic_is_found_among_the_instructions(tmp_path):
    """__rdtsc() is neither a call nor inline assembly: only the built instructions show it."""
    files = probe(tmp_path, b'#include <x86intrin.h>\nextern "C" long f() { return (long)__rdtsc(); }\n')
    verdict = judge(files, "cpp")
    assert verdict.rejected and "[native_escape]" in verdict.error and "rdtsc" in verdict.error


def test_system_call_instructions_are_refused_and_named():
    assert instruction_problems("") == []
    problems = instruction_problems("      2 syscall\n      1 rdtscp\n")
    assert [rule for rule, _ in problems] == ["native_escape", "native_escape"]
    assert "syscall" in problems[0][1] and "rdtscp" in problems[1][1]


def test_a_build_that_kept_no_preprocessed_source_fails_with_that_reason(tmp_path):
    script = probe_script([["true"]], ["kept/*.ii"], "kernel.o")
    run = subprocess.run(["sh", "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode != 0 and "no preprocessed kept/*.ii" in run.stderr


@pytest.mark.parametrize("forged", ['#line 1 "/usr/include/stdlib.h"', '# 1 "/usr/include/stdlib.h" 1 3 4',
                                    '%:line 9', '#li\\\nne 2 "x.h"', '??=line 3'])
def test_a_source_that_renames_its_own_lines_is_refused(forged):
    """Line markers tell the solution's lines from the headers': a forged one would hide what follows."""
    verdict = line_control_refusal(['extern "C" void f() {}', forged + '\nextern "C" void g() { asm("nop"); }'])
    assert verdict.rejected and "[native_escape]" in verdict.error and "line directives" in verdict.error
    assert line_control_refusal(['#include <cmath>\nconst char* s = "#line 1";\n']) is None


@pytest.mark.parametrize("spelling", ["other.h", "./sub/../other.h", "/proc/self/cwd/other.h"])
def test_a_second_file_of_the_work_dir_is_checked_however_it_is_included(tmp_path, spelling):
    """Only headers under a trusted include directory are skipped: a file the solution can write or reach
    (a second source of the same build, a path through /proc) is checked like the solution's own."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "other.h").write_bytes(b'#define EVIL __asm__("nop")\nextern "C" void g() { EVIL; }\n')
    files = probe(tmp_path, f'#include <cmath>\n#include "{spelling}"\n'.encode() + GOOD)
    verdict = judge(files, "cpp")
    assert verdict.rejected and "[native_asm]" in verdict.error and '__asm__("nop")' in verdict.error


@pytest.mark.parametrize("source", [
    'static void team(void (*)(void*), void*, unsigned, unsigned) __attribute__((weakref("GOMP_" "parallel")));',
    'static void team(void (*)(void*), void*, unsigned, unsigned) __attribute__((alias("my_team")));',
    '[[gnu::weakref("omp_" "x")]] static void f();', "#pragma weak team = other"])
def test_a_name_bound_to_another_symbol_is_refused(source):
    assert any("symbol binding" in message for _, message in source_problems(source))


def test_joined_literals_naming_an_openmp_entry_point_are_found_and_plain_names_are_not_bindings():
    assert source_problems('const char* s = "GOMP_" "parallel";')[0][1].startswith("GOMP_parallel")
    assert source_problems("int alias = 3; int f(int alias) { return alias; } [[nodiscard]] int g();") == []


def test_the_python_c_api_is_refused_in_the_solutions_lines_and_allowed_in_the_generated_binding():
    marker = "0123abcd"
    glue = f"namespace {GLUE_MARK}{marker} {{}}\nPyObject* PyInit_ext() {{ return pybind11::module_(\"m\").ptr(); }}\n"
    kernel = "void relu(at::Tensor out, at::Tensor x) { float* o = out.data_ptr<float>(); }\n"
    main = f"{FILE_MARK}{marker} build/main.ii\n"
    assert forbidden_names(main + kernel + glue, marker) == []
    for call in ("PyObject* b = PyEval_GetBuiltins();", 'auto m = py::module_::import("builtins");',
                 "THPVariable_Wrap(out);", "c10::impl::getGlobalPyInterpreter();"):
        assert forbidden_names(main + kernel + call + "\n" + glue, marker), call
    assert forbidden_names(main + kernel + glue.replace(marker, "forged0"), marker)  # no mark of this build: all checked
    cuda = f"{FILE_MARK}{marker} build/keep/cuda.cudafe1.ii\nPyObject* p;\n"
    assert forbidden_names(main + kernel + glue + cuda, marker)
    assert forbidden_names('const char* s = "PyEval_GetBuiltins";')  # the name a run-time look-up would use


@pytest.mark.parametrize("line", ["((void**)stderr->_unused2)[0] = cache;", "errno = 7;", "std::cout.precision(9);",
                                  "static const int slot = std::ios_base::xalloc();", "__libc_single_threaded = 2;",
                                  "FILE* f = stdout;"])
def test_the_libraries_global_objects_are_refused_as_state(line):
    assert forbidden_names(f"void relu(float* o, const float* x, long n) {{ {line} }}\n") == [
        ("stateful", forbidden_names(f"void f() {{ {line} }}")[0][1])]
    assert forbidden_names(f"void f() {{ {line} }}")[0][1].startswith("native code uses the C or C++ library's")


@pytest.mark.parametrize("line", ["x.unsafeGetTensorImpl()->set_stride(1, -4);", "struct Hook : c10::BackendMeta {};",
                                  "auto impl = x.getIntrusivePtr();", "out.set_storage_offset(7);",
                                  "out._set_neg(true);", "out._set_conj(true);",
                                  "return torch::empty({1}, x.options()).use_count() > 1;"])
def test_a_tensors_internals_are_refused_in_the_solutions_lines(line):
    problems = forbidden_names(line + "\n")
    assert problems and "a tensor's internals" in problems[0][1]


@pytest.mark.parametrize("line", ["auto* header = (const Elf64_Ehdr*)base;", "void* f = dlsym(RTLD_DEFAULT, name);",
                                  'const char* name = "PyRun_SimpleString";', 'const char* name = "dl" "sym";'])
def test_a_function_looked_up_at_run_time_is_refused(line):
    assert forbidden_names(line + "\n")


def test_strings_of_ordinary_messages_pass():
    assert forbidden_names('TORCH_CHECK(x.is_contiguous(), "PyTorch tensor must be contiguous");\n') == []


def test_the_dispatchers_keys_and_guards_are_refused():
    line = "c10::impl::ExcludeDispatchKeyGuard guard(c10::DispatchKeySet(c10::DispatchKey::Python));\n"
    assert "the dispatcher's keys or guards" in forbidden_names(line)[0][1]


@pytest.mark.parametrize("line", ["at::native::serial_vec_log_softmax_lastdim_range<float>(x, y, n, c, 0, r);",
                                  "using namespace at :: native;", "namespace kernels = at::native;",
                                  "namespace at { namespace native { void mine(); } }",
                                  "namespace at { void f() { native::serial_vec_log_softmax_lastdim_range<float>(); } }",
                                  "using namespace at;\nvoid f() { native::vec_log_softmax_lastdim_chunk_size<float>(); }",
                                  "namespace c10 { int mine = 1; }"])
def test_atens_own_kernels_are_refused_in_the_solutions_lines(line):
    """A torch header defines ATen's CPU kernels as templates: instantiated in the solution, they leave no
    undefined symbol and never meet the dispatcher."""
    problems = forbidden_names(line + "\n")
    assert problems and "ATen's own kernels" in problems[0][1]
    assert forbidden_names("auto v = at::vec::Vectorized<float>::loadu(p);\n") == []  # the SIMD wrappers stay


HONEST_IDIOMS = b'''#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>
static const float LUT[4] = {1, 2, 3, 4};
constexpr int K = 8;
struct Base { virtual float f(float x) const { return x; } virtual ~Base() = default; };
struct Square : Base { float f(float x) const override { return x * x; } };
extern "C" void f(float* y, const float* x, long n) {
    std::vector<float> tmp(x, x + n);
    std::sort(tmp.begin(), tmp.end());
    std::unique_ptr<Base> b(new Square());
    std::function<float(float)> g = [&](float v) { return b->f(v) + std::exp(v); };
    #pragma omp parallel for
    for (long i = 0; i < n; ++i) {
        #pragma omp critical
        { y[i] = g(x[i]) + LUT[i % 4] + K; }
    }
}
'''


def test_constant_tables_classes_lambdas_and_the_library_keep_no_state_of_the_solutions(tmp_path):
    assert judge(probe(tmp_path, HONEST_IDIOMS), "cpp") is None


@pytest.mark.parametrize("state,use", [(b"static long calls = 0;", b"o[0] = ++calls;"),
                                       (b"float* cache = nullptr;", b"if (!cache) cache = o; o[0] = cache[1];"),
                                       (b"namespace { std::vector<float> kept; }", b"kept.push_back(n); o[0] = kept[0];"),
                                       (b"thread_local int seen = 0;", b"o[0] = ++seen;"),
                                       (b"", b"static int hits; o[0] = ++hits;"),
                                       (b"#include <locale>", b"o[0] = ++*reinterpret_cast<long*>(&std::numpunct<int>::id);")])
def test_writable_global_or_static_data_is_state_between_calls(tmp_path, state, use):
    """A static kept a matrix decoded on the first call for every later one (2.6x on macko_spmv), or a call count."""
    source = b"#include <vector>\n" + state + b'\nextern "C" void f(float* o, long n) { ' + use + b" }\n"
    verdict = judge(probe(tmp_path, source), "cpp")
    assert verdict.rejected and "[stateful]" in verdict.error and "writable global or static data" in verdict.error


def test_the_standard_librarys_namespaces_may_not_be_reopened():
    assert forbidden_names("namespace std { int hidden; }")
    assert forbidden_names("template <> struct std::hash<Mine> { static inline long calls = 0; };")
    assert not forbidden_names("std::hash<int> h; struct Mine { std::vector<float> v; };")
    assert not forbidden_names("using namespace std;\nint f();")
