"""The allow-list tables are consistent with each other and with the libraries they describe."""

import builtins

import pytest
import torch

from benchmarks.kernels.verifier.static import allowlist as allow


def test_no_builtin_is_both_allowed_and_banned():
    assert not set(allow.BANNED_BUILTINS) & allow.HOST_BUILTINS
    assert allow.DATA_BUILTINS <= allow.HOST_BUILTINS
    assert all(hasattr(builtins, name) for name in allow.HOST_BUILTINS | set(allow.BANNED_BUILTINS))


def test_views_and_queries_are_real_tensor_methods_and_not_compute():
    methods = set(dir(torch.Tensor))
    assert (allow.TENSOR_VIEWS | allow.TENSOR_QUERIES | allow.TENSOR_DATA) <= methods
    assert not (allow.TENSOR_VIEWS | allow.TENSOR_QUERIES) & {"relu", "clamp", "t", "transpose", "permute", "clone",
                                                              "copy_", "mul", "exp_", "item", "tolist"}


def test_parametrised_layers_hold_weights_and_allocation_exists():
    for name in allow.PARAMETRISED_LAYERS:
        assert issubclass(getattr(torch.nn, name), torch.nn.Module)
    assert all(callable(getattr(torch, name)) for name in allow.ALLOCATION | allow.INIT_CREATION)


def test_triton_attributes_exist_on_triton_values():
    tl = pytest.importorskip("triton.language")
    metadata = {"dtype", "shape", "type", "numel", "value"}
    assert allow.TRITON_TENSOR_ATTRIBUTES - metadata <= set(dir(tl.tensor))
    assert "handle" not in allow.TRITON_TENSOR_ATTRIBUTES


def test_npu_host_names_are_in_the_language():
    from sandboxes.targets.npu import lang

    assert allow.NPU_HOST <= set(lang.__all__)
