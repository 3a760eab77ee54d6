"""Resolving solution extensions against the cache: record when missing, load when built."""

import pytest
import torch

from sandboxes.targets import native
from sandboxes.targets.compile import CachedBuilder

SOURCE = 'extern "C" void add1(float* out, const float* x, long n) { for (long i = 0; i < n; ++i) out[i] = x[i] + 1; }'


def test_missing_build_is_recorded_and_placeholder_fails_clearly(tmp_path):
    resolver = native.ExtensionResolver(tmp_path, "salt")
    native.activate(resolver)
    ext = native.load_cpp("add1", SOURCE, {"add1": ["tensor", "tensor", "int"]})
    assert [s.name for s in resolver.pending] == ["add1"]
    with pytest.raises(RuntimeError, match="not built yet"):
        ext.add1
    import torch.utils.cpp_extension as cpp_extension

    cpp_extension.load_inline(name="m", cpp_sources="int f();", functions=["f"])
    assert resolver.pending[-1].kind == "load_inline" and resolver.pending[-1].functions == ("f",)


def test_unknown_argument_kind_is_refused(tmp_path):
    native.activate(native.ExtensionResolver(tmp_path, ""))
    with pytest.raises(ValueError, match="unknown argument kinds"):
        native.load_cpp("x", SOURCE, {"add1": ["pointer"]})


def test_built_library_is_loaded_and_checks_arguments(sandbox, fresh_cache):
    builder = CachedBuilder("cpu", ["g++"], fresh_cache)
    resolver = native.ExtensionResolver(fresh_cache.root, builder.salt)
    native.activate(resolver)
    native.load_cpp("add1", SOURCE, {"add1": ["tensor", "tensor", "int"]})
    assert builder.build(resolver.pending[0], sandbox).ok
    lib = native.load_cpp("add1", SOURCE, {"add1": ["tensor", "tensor", "int"]})
    x = torch.arange(4, dtype=torch.float32)
    out = torch.empty_like(x)
    lib.add1(out, x, 4)
    assert out.tolist() == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match="contiguous"):
        lib.add1(out, torch.zeros(4, 2).t(), 4)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        lib.add1(out, x)
