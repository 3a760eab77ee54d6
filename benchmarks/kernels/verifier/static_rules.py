"""The catalogue of known reward hacks, each an AST rule over the solution source.

Every rule takes the parsed module and returns :class:`Violation` objects whose message tells the
agent what to change. ``KNOWN_HACKS`` maps each rule to the hack it blocks; every entry has an
adversarial solution in ``builtin:adversarial`` and a test.
"""

from __future__ import annotations

import ast
import re
from typing import Iterator

from sandboxes.targets.base import Violation

ALLOWED_IMPORTS = ("torch", "torch.nn", "torch.nn.functional", "torch.utils.cpp_extension", "math", "typing",
                   "numbers", "functools", "itertools", "dataclasses", "__future__", "sandboxes.targets.native",
                   "triton", "triton.language")
SHAPE_AND_ALLOCATION = {
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
    "tensor", "as_tensor", "from_numpy", "Size", "device", "dtype", "float32", "float16", "bfloat16", "float64",
    "int64", "int32", "int8", "uint8", "bool", "long", "is_tensor", "numel", "get_default_dtype", "no_grad",
    "inference_mode", "cdiv",
}
COMPUTE_METHODS = {
    "relu", "relu_", "gelu", "sigmoid", "tanh", "exp", "log", "log1p", "sqrt", "rsqrt", "pow", "abs", "neg",
    "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_", "matmul", "mm", "bmm", "addmm", "baddbmm", "mv",
    "dot", "einsum", "softmax", "log_softmax", "sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin",
    "cumsum", "cumprod", "prod", "norm", "var", "std", "clamp", "clamp_", "clip", "maximum", "minimum", "where",
    "masked_fill", "triu", "tril", "conv2d", "conv1d", "logsumexp", "erf", "silu", "softplus", "hardtanh",
    "square", "reciprocal", "sort", "topk", "lerp", "addcmul", "addcdiv", "t", "transpose", "permute",
}
FORBIDDEN_CALLS = {
    "print": ("output", "prints output; solutions must not write to stdout/stderr (a fake score line is a known hack)"),
    "exit": ("early_exit", "calls exit(); the process must finish the evaluation"),
    "quit": ("early_exit", "calls quit(); the process must finish the evaluation"),
    "_exit": ("early_exit", "calls os._exit(); exiting early to skip checks is a known hack"),
    "setattr": ("monkeypatch", "setattr() can patch timers or comparisons; assign your own attributes directly"),
    "delattr": ("monkeypatch", "delattr() is not allowed"),
    "globals": ("introspection", "globals() is not allowed"),
    "locals": ("introspection", "locals() is not allowed"),
    "vars": ("introspection", "vars() is not allowed"),
    "eval": ("dynamic_code", "eval() hides code from the static checks"),
    "exec": ("dynamic_code", "exec() hides code from the static checks"),
    "compile": ("dynamic_code", "compile() hides code from the static checks"),
    "__import__": ("dynamic_code", "__import__() hides imports from the static checks"),
    "getattr": ("dynamic_code", "getattr() with computed names hides attribute access; use plain attributes"),
    "open": ("file_access", "open() is not allowed: no reading the reference or writing results"),
    "breakpoint": ("early_exit", "breakpoint() is not allowed"),
}
FORBIDDEN_ATTRIBUTES = {
    "__globals__", "__code__", "__closure__", "__builtins__", "__subclasses__", "__dict__", "__class__",
    "__bases__", "__mro__", "f_back", "f_globals", "f_locals", "_getframe", "__torch_function__",
    "__torch_dispatch__", "_make_subclass", "_make_wrapper_subclass", "as_subclass", "Stream", "stream",
    "set_stream", "ExternalStream", "current_stream", "_exit", "modules",
}
FORBIDDEN_TORCH_ATTRIBUTES = {"_C", "ops", "library", "_dynamo", "_subclasses", "compile", "jit", "fx", "_refs",
                              "_prims", "_inductor"}
"""Torch internals and compilers that run the framework's own kernels (only when reached from torch)."""
NATIVE_ALLOWED = {"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "full", "Tensor",
                  "TensorOptions", "IntArrayRef", "ScalarType", "Device", "dtype", "kFloat", "kCPU", "kCUDA"}
NATIVE_FRAMEWORK_CALL = re.compile(r"\b(?:torch|at|aten)::(?:native::|cuda::|functional::)?(\w+)\s*\(")
NATIVE_METHOD_CALL = re.compile(r"\.\s*(" + "|".join(sorted(COMPUTE_METHODS - {"t", "max", "min"})) + r")\s*\(")
NATIVE_ESCAPES = re.compile(
    r"std::(?:thread|jthread|async)\b|\bpthread_create\b|\b(?:v?fork|system|popen|exec[lv]p?e?|dlopen|syscall|"
    r"fopen|freopen|open|getenv|omp_set_num_threads|omp_set_dynamic|cudaStreamCreate\w*|cudaDeviceSynchronize)\s*\("
    r"|\bnum_threads\s*\(|std::(?:i|o)?fstream\b|#\s*include\s*<(?:thread|future|fstream|unistd\.h|dlfcn\.h)>")
"""Native code that starts threads or processes, changes the thread count, reads files or the environment."""
BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod, ast.MatMult)


def _walk_functions(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _is_device_kernel(function: ast.FunctionDef) -> bool:
    """A Triton ``@jit`` or NPU ``@kernel`` function: its arguments are device handles, not framework tensors."""
    names = [_dotted(d.func if isinstance(d, ast.Call) else d) for d in function.decorator_list]
    return any("jit" in name or name.split(".")[-1] == "kernel" for name in names)


def module_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> imported module path (``F`` -> ``torch.nn.functional``)."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def imports_rule(tree: ast.Module, allowed: tuple[str, ...] = ALLOWED_IMPORTS) -> list[Violation]:
    """Only allow-listed modules: no os/sys/time/threading/ctypes/gc/inspect/importlib or the task module."""
    found = []
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            if isinstance(node, ast.ImportFrom) and node.level:
                name = "." * node.level + name
            if not any(name == a or name.startswith(a + ".") for a in allowed):
                found.append(Violation("imports", node.lineno, f"import of {name!r} is not allowed (threads, "
                                       f"processes, timers, introspection and the reference module are off limits); "
                                       f"allowed: {', '.join(allowed)}"))
    return found


def calls_rule(tree: ast.Module) -> list[Violation]:
    """No print/exit/setattr/eval/open/getattr and friends."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if name in FORBIDDEN_CALLS:
                rule, message = FORBIDDEN_CALLS[name]
                found.append(Violation(rule, node.lineno, message))
    return found


def attributes_rule(tree: ast.Module) -> list[Violation]:
    """No frame/global introspection, tensor-subclass hooks, extra streams, torch internals."""
    torch_names = {name for name, path in module_aliases(tree).items() if path.split(".")[0] == "torch"}
    return [Violation("forbidden_attribute", node.lineno, f"attribute {node.attr!r} is not allowed "
                      "(introspection, lazy tensor subclasses, extra streams and torch internals are known hacks)")
            for node in ast.walk(tree) if isinstance(node, ast.Attribute) and (
                node.attr in FORBIDDEN_ATTRIBUTES or
                (node.attr in FORBIDDEN_TORCH_ATTRIBUTES and _root_name(node) in torch_names))]


def try_except_rule(tree: ast.Module) -> list[Violation]:
    """No try/except: a failing kernel must fail, not fall back to the framework."""
    return [Violation("try_fallback", node.lineno, "try/except is not allowed: a fallback to the reference "
                      "on failure is a known hack; let errors surface")
            for node in ast.walk(tree) if isinstance(node, ast.Try) and node.handlers]


def monkeypatch_rule(tree: ast.Module) -> list[Violation]:
    """No assignment to attributes of imported modules or their classes (timers, synchronize, allclose)."""
    modules = set(module_aliases(tree))
    found = []
    for node in ast.walk(tree):
        for target in _assign_targets(node):
            if isinstance(target, ast.Attribute) and _root_name(target) in modules:
                found.append(Violation("monkeypatch", node.lineno, f"assigning {_dotted(target)!r} patches a library "
                                       "(timers, synchronize and comparisons are known targets)"))
    return found


def subclass_rule(tree: ast.Module) -> list[Violation]:
    """No tensor subclasses (lazy tensors that compute only when compared)."""
    return [Violation("lazy_tensor", node.lineno, f"class {node.name} subclasses {_dotted(base)}: tensor "
                      "subclasses are not allowed; return a plain torch.Tensor")
            for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            for base in node.bases if _dotted(base).split(".")[-1] in {"Tensor", "FakeTensor"}]


def _assign_targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    return [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []


def state_rule(tree: ast.Module) -> list[Violation]:
    """No global/nonlocal state, no writes to module-level objects or to ``self`` outside ``__init__``."""
    found = [Violation("stateful", node.lineno, "global/nonlocal state is not allowed (caching outputs is a known hack)")
             for node in ast.walk(tree) if isinstance(node, (ast.Global, ast.Nonlocal))]
    module_names = {t.id for node in tree.body for t in _assign_targets(node) if isinstance(t, ast.Name)}
    for function in _walk_functions(tree):
        owners = module_names | ({"self"} if function.name != "__init__" else set())
        for node in ast.walk(function):
            found += [Violation("stateful", node.lineno, f"{function.name} assigns {ast.unparse(t)}: storing state "
                                "across calls is not allowed (cached outputs are a known hack)")
                      for t in _assign_targets(node)
                      if isinstance(t, (ast.Attribute, ast.Subscript)) and _root_name(t) in owners]
    return found


def reference_rule(tree: ast.Module) -> list[Violation]:
    """No use of the task's ``Model`` (the reference) or its ``get_inputs``."""
    return [Violation("reference_access", node.lineno, f"{node.id} belongs to the reference program; "
                      "the solution must not use it")
            for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in {"Model", "get_inputs"}]


def framework_compute_rule(tree: ast.Module) -> list[Violation]:
    """Outside ``__init__`` no torch compute ops, no torch submodule calls, no tensor arithmetic."""
    aliases = module_aliases(tree)
    torch_names = {name for name, path in aliases.items()
                   if path.split(".")[0] == "torch" and not path.startswith("torch.utils.cpp_extension")}
    found: list[Violation] = []
    for function in _walk_functions(tree):
        if function.name == "__init__" or _is_device_kernel(function):
            continue
        tensor_args = {a.arg for a in function.args.args if a.arg != "self"}
        for node in ast.walk(function):
            found += _compute_violations(node, torch_names, tensor_args, function.name)
    return found


def _compute_violations(node: ast.AST, torch_names: set[str], tensor_args: set[str], where: str) -> list[Violation]:
    message = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        root, attr = _root_name(node.func), node.func.attr
        if root in torch_names and attr not in SHAPE_AND_ALLOCATION and not _dotted(node.func).startswith(
                "torch.utils.cpp_extension"):
            message = f"calls the framework op {_dotted(node.func)}() in {where}"
        elif root not in torch_names and attr in COMPUTE_METHODS:
            message = f"calls the tensor method .{attr}() in {where}"
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in torch_names:
        message = f"calls the framework op {node.func.id}() in {where}"
    elif isinstance(node, ast.BinOp) and isinstance(node.op, BINOPS) and any(
            isinstance(side, ast.Name) and side.id in tensor_args for side in (node.left, node.right)):
        message = f"tensor arithmetic ({type(node.op).__name__}) on an input in {where}"
    if message is None:
        return []
    return [Violation("framework_compute", node.lineno, message + ": the main computation must run in your own "
                      "kernel, not in the framework's compute ops")]


def native_code_rule(tree: ast.Module) -> list[Violation]:
    """Native sources (string constants) must not call ATen/torch compute ops either."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and "(" in node.value):
            continue
        ops = [m for m in NATIVE_FRAMEWORK_CALL.findall(node.value) if m not in NATIVE_ALLOWED]
        ops += NATIVE_METHOD_CALL.findall(node.value) if ("torch::" in node.value or "at::" in node.value) else []
        if ops:
            found.append(Violation("native_framework_call", node.lineno, f"native code calls the framework's "
                                   f"{', '.join(sorted(set(ops)))}: write the computation yourself"))
        escapes = sorted({m.group(0).strip() for m in NATIVE_ESCAPES.finditer(node.value)})
        if escapes:
            found.append(Violation("native_escape", node.lineno, f"native code uses {', '.join(escapes)}: threads, "
                                   "processes, thread-count changes, files and the environment are off limits "
                                   "(a background thread can slow the reference while the kernel is not timed)"))
    return found


DEFAULT_RULES = (imports_rule, calls_rule, attributes_rule, try_except_rule, monkeypatch_rule, subclass_rule,
                 state_rule, reference_rule, framework_compute_rule, native_code_rule)
KNOWN_HACKS = {
    "framework_compute": "calls the reference op (or any framework compute op) instead of a kernel",
    "native_framework_call": "the C++/CUDA 'kernel' calls ATen (torch::relu, x.matmul(...)) instead of computing",
    "native_escape": "native code starts a thread/process (e.g. a CPU burner that slows the reference), changes "
                     "the thread count, or reads files/environment",
    "try_fallback": "falls back to the reference in try/except",
    "monkeypatch": "monkeypatches timers, synchronize or comparison functions",
    "imports": "threads, processes, timers, ctypes, gc/inspect, or the reference module via imports",
    "forbidden_attribute": "extra streams, frame/global introspection, tensor-subclass hooks, torch internals",
    "lazy_tensor": "returns a lazy tensor subclass",
    "stateful": "returns a cached output kept in module or global state",
    "reference_access": "reads or instantiates the reference Model",
    "output": "prints a fake score line",
    "early_exit": "exits early with os._exit/sys.exit",
    "dynamic_code": "hides code from the checks with eval/exec/getattr",
    "introspection": "reads globals()/locals()/vars() to find the reference",
    "file_access": "reads the reference file or writes results",
}
