"""The native check: the probe script the sandbox runs, and the verdict on what it leaves behind."""

import subprocess

from sandboxes.targets.native_check import PROBE_FILES, judge, probe_script, source_problems

GOOD = (b'extern "C" void f(float* o, const float* x, long n) {\n#pragma omp parallel for\n'
        b'for (long i = 0; i < n; ++i) o[i] = x[i]; }\n')


def probe(tmp_path, source: bytes) -> dict[str, bytes]:
    """Run the probe script for real (g++, awk, nm, c++filt) in a scratch folder."""
    (tmp_path / "kernel.cpp").write_bytes(source)
    flags = ["-O2", "-fopenmp", "-std=c++17"]
    script = probe_script(["g++", *flags, "-shared", "-fPIC", "kernel.cpp", "-o", "lib.so"],
                          [(["g++", "-E", *flags, "kernel.cpp"], "kernel.cpp")], "lib.so")
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


def test_a_build_that_left_no_probe_is_refused():
    assert judge({}, "cpp").rejected
