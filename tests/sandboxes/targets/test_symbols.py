"""The allow-list of undefined symbols, on names as ``c++filt -p`` prints them from real builds."""

import pytest

from sandboxes.targets.symbols import allowed, refused, strip_templates

LOAD_CPP = ["GOMP_parallel", "GOMP_loop_nonmonotonic_dynamic_start", "__gxx_personality_v0",
            "_ITM_registerTMCloneTable", "__cxa_finalize", "expf", "_ZGVdN8v_expf", "tanhf", "memcpy", "operator new",
            "std::__throw_length_error", "omp_get_thread_num", "typeinfo for bool"]
LOAD_INLINE = ["at::TensorBase::data_ptr<float>", "at::_ops::empty_like::call", "c10::detail::torchCheckFail",
               "c10::TensorImpl::decref_pyobject", "pybind11::detail::type_caster<at::Tensor, void>::load",
               "PyObject_GetAttrString", "std::operator<< <std::char_traits<char> >",
               "vtable for torch::autograd::AutogradMeta",
               "std::__cxx11::basic_ostringstream<char, std::char_traits<char>, std::allocator<char> >"
               "::~basic_ostringstream",
               "stderr", "fprintf"]
CUDA = ["__cudaRegisterFatBinary", "__cudaPushCallConfiguration", "cudaLaunchKernel", "c10::cuda::getCurrentCUDAStream"]


def test_plain_cpp_may_use_libm_openmp_and_the_cxx_runtime():
    assert refused(LOAD_CPP, "cpp") == {}


def test_load_inline_adds_tensor_accessors_and_glue_but_plain_cpp_may_not_use_them():
    assert refused(LOAD_CPP + LOAD_INLINE, "inline") == {}
    assert set(refused(LOAD_INLINE, "cpp")) == {"native_framework_call", "native_escape"}


def test_cuda_adds_the_launch_runtime_only():
    assert refused(LOAD_INLINE + CUDA, "cuda") == {}
    assert refused(["cudaDeviceSynchronize", "cudaStreamCreate", "cudaMalloc"], "cuda") == {
        "native_escape": ["cudaDeviceSynchronize", "cudaMalloc", "cudaStreamCreate"]}


@pytest.mark.parametrize("symbol, rule", [
    ("at::_ops::relu::call", "native_framework_call"), ("at::relu_", "native_framework_call"),
    ("cublasSgemm_v2", "native_framework_call"), ("PyRun_SimpleString", "native_framework_call"),
    ("PyImport_ImportModule", "native_framework_call"), ("at::internal::invoke_parallel", "native_framework_call"),
    ("pthread_create", "native_escape"), ("std::thread::_M_start_thread", "native_escape"),
    ("syscall", "native_escape"),
    ("fopen", "native_escape"), ("kill", "native_escape"), ("ptrace", "native_escape"), ("getenv", "native_escape"),
    ("omp_set_num_threads", "native_escape"), ("std::cout", "native_escape"), ("dlsym", "native_escape"),
    ("std::chrono::_V2::steady_clock::now", "native_escape"), ("omp_get_wtime", "native_escape"),
    ("omp_get_wtick", "native_escape"), ("at::_ops::_reshape_alias::call", "native_framework_call"),
    ("GOMP_teams_reg", "native_escape"), ("GOMP_target_ext", "native_escape"), ("at::_ops::contiguous::call", "native_framework_call"),
    ("at::_ops::_to_copy::call", "native_framework_call"), ("at::_ops::reshape::call", "native_framework_call"),
    ("at::TensorBase::__dispatch_contiguous", "native_framework_call"),
])
def test_framework_compute_and_escapes_are_refused_by_rule(symbol, rule):
    assert refused([symbol], "cuda") == {rule: [symbol]}


def test_the_exceptions_torch_check_and_at_dispatch_throw_are_allowed():
    """AT_DISPATCH_FLOATING_TYPES's default case throws c10::NotImplementedError: its type information is needed
    (and x.size(-1) wraps its negative dim out of line)."""
    symbols = ["typeinfo for c10::Error", "vtable for c10::Error", "typeinfo for c10::NotImplementedError",
               "vtable for c10::NotImplementedError", "c10::NotImplementedError::~NotImplementedError",
               "c10::detail::maybe_wrap_dim_slow<long>"]  # x.size(-1)
    assert refused(symbols, "inline") == {}
    assert refused(symbols, "cpp") != {}  # plain C++ has no torch


def test_template_arguments_are_not_part_of_the_name():
    name = "std::vector<std::pair<int, float> >::_M_realloc_insert<int>"
    assert strip_templates(name) == "std::vector::_M_realloc_insert"
    assert strip_templates("std::operator<< <std::char_traits<char> >") == "std::operator<<"
    assert not allowed("at::_ops::relu::call", "inline") and allowed("at::_ops::empty_like::call", "inline")
