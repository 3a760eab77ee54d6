"""The allow-list of what native kernel code may link to, judged on the compiled object's undefined
symbols (``nm -u``, demangled without parameters by ``c++filt -p``).

Whatever the source spells (a namespace alias, a macro that pastes tokens, a forward declaration),
a call to a function the object does not define shows up here by its real name. Three builds:
``cpp`` (``load_cpp``: plain C++ over raw pointers), ``inline`` (``load_inline``: also torch's tensor
accessors and the pybind11 glue that load_inline generates) and ``cuda`` (also the CUDA launch runtime).
"""

from __future__ import annotations

import re
from typing import Iterable

LIBM_NAMES = (
    "sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp exp2 exp10 expm1 log log2 log10 log1p "
    "pow sqrt cbrt hypot erf erfc tgamma lgamma ceil floor trunc round lround llround nearbyint rint lrint llrint "
    "fmod remainder remquo fabs fmin fmax fma fdim frexp ldexp modf scalbn scalbln ilogb logb nextafter copysign "
    "nan sincos").split()
LIBM = re.compile(r"(?:__)?(?:%s)(?:f|l|f32|f64|f32x|f64x)?(?:_finite)?" % "|".join(LIBM_NAMES))
LIBMVEC = re.compile(r"_ZGV[a-e][NM]\d+[vlu\d]*_(?:%s)f?" % "|".join(LIBM_NAMES))
"""GCC's vectorised libm calls (``_ZGVdN8v_expf``) under -ffast-math and ``omp simd``."""

C_RUNTIME = frozenset({
    "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strcmp", "strncmp", "strchr", "strdup",
    "__memcpy_chk", "__memmove_chk", "__memset_chk", "malloc", "calloc", "realloc", "free", "posix_memalign",
    "aligned_alloc", "qsort", "abort", "__assert_fail", "__stack_chk_fail", "__tls_get_addr", "__errno_location",
    "__cxa_finalize", "__gmon_start__", "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable",
    "__libc_single_threaded", "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_once", "__pthread_key_create",
    "_Unwind_Resume", "__gxx_personality_v0", "__dynamic_cast", "operator new", "operator new[]", "atexit",
    "_GLOBAL_OFFSET_TABLE_", "__dso_handle",
    "operator delete", "operator delete[]",
})
"""libc memory and string basics, and what the C++ runtime itself needs (guards, exceptions, unwinding)."""
CXX_RUNTIME = re.compile(r"__cxa_\w+|std::__throw_\w+|__cxxabiv1::.*")
OPENMP = re.compile(r"GOMP_(?!teams|target)\w+|omp_get_(?!wtime|wtick)\w+|omp_in_parallel|"
                    r"omp_(?:init|destroy|set|unset|test)_(?:nest_)?lock")
"""The OpenMP runtime; the ``omp_set_*`` calls that change the thread count are not on it, nor its clock
(``omp_get_wtime``: a kernel that times its own allocations tells a traced call from a timed one), nor host teams
(``GOMP_teams_reg``: ``#pragma omp teams`` starts teams of threads of its own, past ``--threads``), nor target regions
(``GOMP_target_ext``: the host fallback's parallel regions take their thread count from the environment)."""
STD = re.compile(
    r"std::(?:exception|bad_alloc|bad_array_new_length|bad_cast|bad_typeid|bad_function_call|logic_error|"
    r"runtime_error|length_error|out_of_range|invalid_argument|domain_error|overflow_error|underflow_error|"
    r"range_error|nested_exception|terminate|current_exception|rethrow_exception|__exception_ptr|_Hash_bytes|"
    r"__detail::_Prime_rehash_policy|_Rb_tree_\w+|__cxx11::basic_string|basic_string|__cxx11::basic_ostringstream|"
    r"__cxx11::basic_stringstream|allocator|__cxx11::basic_istringstream|__cxx11::basic_stringbuf|"
    r"basic_ostream|ostream|"
    r"__ostream_insert|operator<<|ios_base|basic_ios|locale|basic_streambuf|__cxx11::to_string|to_string|"
    r"__once_call|__once_callable|__once_proxy)(?!\w).*")
"""libstdc++ pieces plain code uses: exceptions, strings, string streams, hash tables, trees."""
TORCH_ACCESSORS = re.compile(
    r"at::TensorBase::(?:data_ptr|mutable_data_ptr|const_data_ptr)|at::Tensor::(?:data_ptr|mutable_data_ptr|"
    r"const_data_ptr)|at::_ops::(?:empty_memory_format|empty_like|empty_strided|new_empty|new_empty_strided|zeros|"
    r"zeros_like|view)::(?:call|redispatch)|c10::TensorImpl::\w+|c10::Sym\w+::\w+|c10::SymbolicShapeMeta::\w+|"
    r"c10::UndefinedTensorImpl::\w+|c10::AutogradMetaInterface::\W*\w+|c10::detail::torchCheckFail|"
    r"c10::detail::torchInternalAssertFail|c10::detail::maybe_wrap_dim_slow|c10::detail::torchCheckMsgImpl|c10::Error(?:::\W*\w+)?|"
    r"c10::(?:ValueError|TypeError|IndexError|NotImplementedError)(?:::\W*\w+)?|c10::impl::ExcludeDispatchKeyGuard::\W*\w+|"
    r"c10::impl::getGlobalPyInterpreter|caffe2::TypeMeta::\w+|c10::Device::\w+|c10::DeviceTypeName|c10::toString|"
    r"c10::Warning::\W*\w+|c10::warn|c10::WarningHandler::\W*\w+|c10::get_default_dtype\w*|c10::typeMetaToScalarType|"
    r"torch::autograd::AutogradMeta::\W*\w+|torch::autograd::AutogradMeta|c10::SmallVectorBase::grow_pod|"
    r"c10::IValue::reportToTensorTypeError")
"""What a kernel needs from a tensor: data pointers, sizes and strides (TensorImpl, negative dims), fresh outputs,
views, TORCH_CHECK. No copies (``contiguous``, ``reshape``, ``to``, ``_to_copy``): a copy into another layout is
ATen's compute, and C++ told traced calls from timed ones (reference counts, stack use) to copy only when timed,
or copied from an OpenMP thread the tripwire's thread-local dispatch mode never sees; make inputs contiguous in
``forward``."""
INLINE_GLUE = re.compile(
    r"pybind11::.*|torch::PyWarningHandler::\W*\w+|torch::translate_exception_to_python|"
    r"_?Py(?:BaseObject_Type|Bool_\w+|ByteArray_\w+|Bytes_\w+|CFunction_\w+|CMethod_New|Capsule_\w+|Dict_\w+|"
    r"Err_\w+|Eval_(?:AcquireThread|SaveThread|RestoreThread|GetBuiltins)|Exc_\w+|Exception_\w+|Float_\w+|"
    r"Frame_Get\w+|GILState_\w+|InstanceMethod_\w+|InterpreterState_Get\w*|Iter_\w+|List_\w+|Long_\w+|Mem_\w+|"
    r"ModuleDef_Init|Module_AddObject\w*|Module_NewObject|Module_Type|Module_Create2|Number_\w+|Object_\w+|"
    r"Property_Type|Sequence_\w+|Slice_\w+|StaticMethod_\w+|ThreadState_\w+|Thread_tss_\w+|Tuple_\w+|Type_\w+|"
    r"Unicode_\w+|Weakref_\w+|_GetVersion|_Dealloc|_NoneStruct|_NotImplementedStruct|_TrueStruct|_FalseStruct|"
    r"_EllipsisObject|_IncRef|_DecRef|ThreadState_UncheckedGet)|"
    r"fprintf|__fprintf_chk|fputc|fputs|fflush|stderr|snprintf|__snprintf_chk|vsnprintf|__vsnprintf_chk")
"""The glue load_inline generates (pybind11 and the part of the Python C API it uses, error printing).
The Python C API cannot be split from the glue by symbol: the solution's own lines may not name it
(:func:`sandboxes.targets.native_check.forbidden_names`)."""
CUDA_LAUNCH = re.compile(
    r"cudaLaunchKernel\w*|__cudaLaunchKernel\w*|__cudaGetKernel|__cudaPushCallConfiguration|"
    r"__cudaPopCallConfiguration|__cudaRegister\w+|"
    r"__cudaUnregisterFatBinary|__cudaInitModule|cudaGetLastError|cudaPeekAtLastError|cudaGetErrorString|"
    r"cudaGetErrorName|cudaFuncSetAttribute|cudaFuncGetAttributes|cudaFuncSetCacheConfig|cudaOccupancy\w+|"
    r"cudaGetDevice|cudaGetDeviceProperties\w*|cudaDeviceGetAttribute|cudaMemsetAsync|cudaMemcpyAsync|"
    r"c10::cuda::getCurrentCUDAStream|c10::cuda::c10_cuda_check_implementation|c10::cuda::CUDAStream::\w+|"
    r"at::cuda::getCurrentDeviceProperties|at::cuda::getCurrentCUDAStream|c10::cuda::device_count|"
    r"c10::cuda::current_device|c10::cuda::CUDAKernelLaunchRegistry::\w+")
"""Launching a kernel on the current stream; no extra streams, synchronisation or device allocation."""
FRAMEWORK_PREFIXES = ("at::", "torch::", "c10::", "caffe2::", "aten::", "cublas", "cudnn", "cusparse", "cufft",
                      "curand", "cutlass::", "thrust::", "_Py", "Py")
"""Where a refused symbol counts as framework compute (native_framework_call) rather than an escape."""
BUILDS = {"cpp": (), "inline": (TORCH_ACCESSORS, INLINE_GLUE), "cuda": (TORCH_ACCESSORS, INLINE_GLUE, CUDA_LAUNCH)}
FUNDAMENTAL = re.compile(r"typeinfo (?:name )?for [a-z0-9_ ]+(?: const)?\**(?: const)?")
"""Type information of fundamental types (``typeinfo for bool``)."""
WRAPPERS = re.compile(r"^(?:typeinfo name for|typeinfo for|vtable for|VTT for|construction vtable for|"
                      r"guard variable for|non-virtual thunk to|virtual thunk to) ")


def strip_templates(name: str) -> str:
    """``a<b<c>>::f<int>`` -> ``a::f`` (``operator<<`` kept whole)."""
    placeholder = name.replace("operator<<", "\0LSHIFT").replace("operator<", "\0LESS")
    out, depth = [], 0
    for char in placeholder:
        depth += char == "<"
        if depth == 0:
            out.append(char)
        depth -= char == ">" and depth > 0
    return "".join(out).replace("\0LSHIFT", "operator<<").replace("\0LESS", "operator<").replace(" ::", "::").strip()


def allowed(symbol: str, build: str) -> bool:
    """True when ``symbol`` (as ``c++filt -p`` prints it) is on the allow-list of ``build``."""
    if FUNDAMENTAL.fullmatch(symbol.strip()):
        return True
    symbol = WRAPPERS.sub("", symbol.strip())
    name = strip_templates(symbol)
    if name in C_RUNTIME or LIBM.fullmatch(name) or LIBMVEC.fullmatch(symbol):
        return True
    plain = (CXX_RUNTIME, OPENMP, STD, *BUILDS[build])
    return any(pattern.fullmatch(name) or pattern.fullmatch(symbol) for pattern in plain)


def refused(symbols: Iterable[str], build: str) -> dict[str, list[str]]:
    """Refused symbols by rule: ``native_framework_call`` (ATen, torch, libraries, Python) or ``native_escape``."""
    found: dict[str, list[str]] = {}
    for symbol in sorted({s.strip() for s in symbols if s.strip()}):
        if not allowed(symbol, build):
            bare = WRAPPERS.sub("", symbol)
            rule = "native_framework_call" if bare.startswith(FRAMEWORK_PREFIXES) else "native_escape"
            found.setdefault(rule, []).append(symbol)
    return found
