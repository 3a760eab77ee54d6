"""The positive model's tables: every name, attribute and call a solution may use, by context.

Contexts: ``host`` (``forward`` and everything it reaches, module level), ``init`` (``__init__``: no
inputs exist there, so weight preparation is allowed, binding an op to call later is not) and the
device languages (Triton bodies, NPU kernel-language bodies). Anything not listed is rejected.
"""

from __future__ import annotations

ALLOCATION = frozenset({"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full",
                        "full_like"})
"""torch functions that allocate (output and scratch buffers)."""
INIT_CREATION = frozenset({"randn", "rand", "randint", "randn_like", "rand_like", "randint_like", "arange",
                           "linspace", "eye", "normal"})
"""torch functions that create weights; only in ``__init__``."""
TORCH_VALUES = frozenset({
    "float32", "float16", "bfloat16", "float64", "half", "float", "double", "int64", "int32", "int16", "int8",
    "uint8", "bool", "long", "int", "short", "complex64", "cfloat", "contiguous_format", "strided",
    "Size", "device", "dtype", "finfo", "iinfo", "get_default_dtype", "is_tensor", "is_floating_point", "Tensor",
    "no_grad", "inference_mode",
})
"""torch names that are data, types or context managers, never compute."""
PARAMETRISED_LAYERS = frozenset({
    "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "LayerNorm", "GroupNorm", "RMSNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "Embedding", "PReLU",
})
"""nn layers that hold parameters: built in ``__init__`` to own weights, never called."""
LAYER_ATTRIBUTES = frozenset({
    "weight", "bias", "running_mean", "running_var", "num_batches_tracked", "eps", "momentum", "num_features",
    "normalized_shape", "elementwise_affine", "affine", "track_running_stats", "num_groups", "num_channels",
    "in_features", "out_features", "in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation",
    "groups", "padding_mode", "output_padding", "num_embeddings", "embedding_dim", "padding_idx", "training",
    "num_parameters",
})
"""What may be read from such a layer: its parameters and settings."""
TENSOR_DATA = frozenset({"shape", "dtype", "device", "ndim", "is_cuda", "is_cpu", "layout", "itemsize", "nbytes",
                         "requires_grad", "is_leaf"})
"""Tensor attributes that are metadata (a number, a dtype, a device)."""
TENSOR_QUERIES = frozenset({"size", "numel", "dim", "ndimension", "nelement", "stride", "element_size",
                            "is_contiguous", "data_ptr", "storage_offset", "get_device", "is_complex"})
"""Tensor methods that answer a question about shape, layout or placement."""
TENSOR_VIEWS = frozenset({"contiguous", "view", "view_as", "reshape", "reshape_as", "flatten", "unflatten",
                          "unsqueeze", "squeeze", "detach", "float", "to", "cpu", "cuda", "narrow", "chunk", "split",
                          "unbind", "select", "new_empty", "new_zeros", "new_ones", "new_full"})
"""Tensor methods that make the pointer a kernel needs (views, placement, fp32, fresh buffers)."""
INIT_DENIED_METHODS = frozenset({"register_hook", "register_post_accumulate_grad_hook", "backward", "share_memory_",
                                 "record_stream", "apply_", "map_", "map2_", "untyped_storage", "storage", "set_",
                                 "numpy", "tolist", "pin_memory", "as_subclass"})
"""Tensor methods refused even in ``__init__``: hooks, storage access, callbacks into Python."""
MODULE_METHODS_INIT = frozenset({"register_buffer", "register_parameter", "eval", "train", "requires_grad_"})
"""nn.Module methods ``__init__`` may call on ``self``."""
MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
                      "add", "discard", "sort", "reverse"})
"""Container methods that keep state; refused outside device bodies' own locals."""

HOST_BUILTINS = frozenset({
    "len", "int", "float", "bool", "complex", "range", "enumerate", "zip", "tuple", "list", "dict", "frozenset",
    "isinstance", "super", "min", "max", "abs", "round", "divmod", "pow", "sum", "any", "all", "sorted",
    "reversed", "str", "slice", "staticmethod", "object", "NotImplemented", "Ellipsis",
    "ValueError", "TypeError", "RuntimeError", "NotImplementedError", "AssertionError", "IndexError", "KeyError",
    "Exception", "ArithmeticError", "ZeroDivisionError",
})
"""Builtins host code may name."""
DATA_BUILTINS = frozenset({"int", "float", "bool", "complex", "min", "max", "abs", "round", "divmod", "pow", "sum",
                           "any", "all", "sorted", "reversed", "str", "range"})
"""Builtins that read values: only on plain numbers (never on a tensor, whose data they would compute on)."""
DEVICE_BUILTINS = HOST_BUILTINS - {"staticmethod", "object", "str"}
"""Builtins a Triton or NPU kernel body may name (not ``str``: the interpreter prints a Triton value's data, and a
kernel parsed ``str(block)`` to reduce it in Python)."""
BANNED_BUILTINS = {
    "print": ("output", "print() writes output; solutions must not write to stdout/stderr (a fake score line is a "
                        "known hack)"),
    "exit": ("early_exit", "exit() ends the process; it must finish the evaluation"),
    "quit": ("early_exit", "quit() ends the process; it must finish the evaluation"),
    "breakpoint": ("early_exit", "breakpoint() is not allowed"),
    "setattr": ("monkeypatch", "setattr() can patch timers or comparisons; assign your own attributes directly"),
    "delattr": ("monkeypatch", "delattr() is not allowed"),
    "globals": ("introspection", "globals() is not allowed"),
    "locals": ("introspection", "locals() is not allowed"),
    "vars": ("introspection", "vars() is not allowed"),
    "eval": ("dynamic_code", "eval() hides code from the checks"),
    "exec": ("dynamic_code", "exec() hides code from the checks"),
    "compile": ("dynamic_code", "compile() hides code from the checks"),
    "__import__": ("dynamic_code", "__import__() hides imports from the checks"),
    "getattr": ("dynamic_code", "getattr() hides which attribute is used; write the attribute out"),
    "hasattr": ("dynamic_code", "hasattr() probes attributes by name; write the attribute out"),
    "open": ("file_access", "open() is not allowed: no reading the reference or writing results"),
}
"""Builtins refused anywhere, even bound to another name first (``lookup = getattr``), with the rule they break."""
EXIT_METHODS = frozenset({"_exit", "exit", "abort", "quit", "kill", "killpg"})
"""Method names that end or signal a process (``os._exit``, ``sys.exit``), refused on any receiver."""
_BINARY = ("add sub mul matmul truediv floordiv mod divmod pow lshift rshift and or xor lt le eq ne gt ge "
           "getitem setitem delitem contains").split()
OPERATOR_DUNDERS = frozenset({f"__{prefix}{name}__" for name in _BINARY for prefix in ("", "r", "i")} | {
    f"__{name}__" for name in "neg pos abs invert bool float int index round floor ceil trunc len iter".split()})
"""The operator hooks of a tensor (``x.__matmul__(y)`` is ``x @ y``): framework compute under another name."""
ALLOWED_DUNDERS = frozenset({"__init__", "__name__"})
"""The only dunder attributes and names a solution may touch (``super().__init__()``, ``__name__``)."""

TORCH_INTERNALS = frozenset({"_C", "ops", "library", "_dynamo", "_subclasses", "compile", "jit", "fx", "_refs",
                             "_prims", "_inductor", "Stream", "stream", "set_stream", "ExternalStream",
                             "current_stream", "default_stream", "synchronize", "Event", "autocast", "backends"})
"""torch attributes that reach the framework's compilers, dispatcher, streams or clocks (rule forbidden_attribute)."""

TRITON_HOST = frozenset({"jit", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2", "language"})
"""``triton.*`` names host code may use."""
TRITON_LANGUAGE_HOST = frozenset({"constexpr", "float16", "float32", "bfloat16", "float64", "int8", "int16", "int32",
                                  "int64", "uint8"})
"""``triton.language.*`` names host code may use (launch arguments)."""
TRITON_TENSOR_ATTRIBUTES = frozenset({
    "T", "abs", "advance", "argmax", "argmin", "associative_scan", "atomic_add", "atomic_and", "atomic_cas",
    "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor", "broadcast_to", "cast", "cdiv", "ceil",
    "cos", "cumprod", "cumsum", "erf", "exp", "exp2", "expand_dims", "flip", "floor", "gather", "histogram", "log",
    "log2", "logical_and", "logical_or", "max", "min", "permute", "ravel", "reduce", "reshape", "rsqrt", "sigmoid",
    "sin", "softmax", "sort", "split", "sqrt", "sqrt_rn", "store", "sum", "to", "trans", "view", "xor_sum", "dtype",
    "shape", "type", "numel", "value",
})
"""Attributes of Triton values (``tl.tensor`` methods and metadata) a Triton body may use; ``handle`` is not one."""

NPU_LANG = "sandboxes.targets.npu.lang"
NPU_HOST = frozenset({"launch", "kernel", "TilingData", "CeilDiv", "AlignUp", "AlignedCount", "sizeof", "BLOCK_BYTES",
                      "half", "float16", "float32", "bfloat16", "int8", "uint8", "int16", "int32"})
"""Kernel-language names host code may use: the launch, tiling, and scalar helpers."""
CONTAINER_METHODS = frozenset({"append", "extend", "insert", "pop", "items", "keys", "values", "get", "index"})
"""Methods of a kernel's own lists, tuples and dicts (NPU kernel bodies may use no other attribute of their own)."""
NPU_RESERVED_ATTRIBUTES = frozenset({"base", "offset"})
"""Attributes of the simulator's GM addresses (the raw numpy buffer behind a kernel argument)."""

LOADERS = {"torch.utils.cpp_extension.load_inline": "load_inline", "sandboxes.targets.native.load_cpp": "load_cpp"}
"""Calls that build the solution's native library (module level or ``__init__`` only)."""
