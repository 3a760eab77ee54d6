"""Imported names: allocation, dtypes and loaders are allowed where they belong; ops, re-exported
modules and internals are refused with the rule that names them."""

import pytest

from benchmarks.kernels.verifier.static.kinds import SCALAR, TENSOR, Tag
from benchmarks.kernels.verifier.static.paths import Refused, init_call, language_of, path_call, path_value


def refusal(path, ctx="host"):
    with pytest.raises(Refused) as caught:
        path_value(path, ctx)
    return caught.value.rule, caught.value.message


@pytest.mark.parametrize("path, rule, words", [
    ("torch.relu", "framework_compute", "framework compute"),
    ("torch.nn.functional.gelu", "framework_compute", "framework compute"),
    ("torch.nn.ReLU", "framework_compute", "framework layer"),
    ("torch.os", "forbidden_attribute", "os module re-exported"),
    ("torch.importlib", "forbidden_attribute", "importlib module"),
    ("torch.ctypes", "forbidden_attribute", "ctypes module"),
    ("torch._C", "forbidden_attribute", "internals"),
    ("torch.cuda.Stream", "forbidden_attribute", "streams"),
    ("torch.ops", "forbidden_attribute", "internals"),
    ("os.system", "not_allowed", "allow-list"),
    ("sandboxes.targets.npu.lang.Relu", "not_allowed", "inside your @kernel"),
    ("triton.language.load", "not_allowed", "@triton.jit"),
])
def test_refused_paths_name_their_rule(path, rule, words):
    found_rule, message = refusal(path)
    assert found_rule == rule and words in message


def test_allowed_values_and_callables():
    assert path_value("torch.float32", "host") == SCALAR
    assert path_value("math.inf", "host") == SCALAR
    assert path_value("torch.empty_like", "host").tag is Tag.PATH
    assert path_value("torch.utils.cpp_extension.load_inline", "module").tag is Tag.PATH
    assert path_value("triton.cdiv", "host").tag is Tag.PATH


def test_weights_and_layers_only_in_init():
    assert path_value("torch.nn.Linear", "init").tag is Tag.PATH
    assert refusal("torch.randn", "host")[0] == "framework_compute"
    assert path_call("torch.nn.Linear", "init", [SCALAR, SCALAR]).tag is Tag.LAYER


def test_calls_allocate_or_take_plain_numbers():
    assert path_call("torch.empty_like", "host", [TENSOR]) == TENSOR
    assert path_call("triton.cdiv", "host", [SCALAR, SCALAR]) == SCALAR
    with pytest.raises(Refused):
        path_call("math.sqrt", "host", [TENSOR])
    with pytest.raises(Refused):
        path_call("torch.tensor", "host", [TENSOR])
    with pytest.raises(Refused):
        path_call("torch.empty", "module", [SCALAR])
    with pytest.raises(Refused):
        path_call("sandboxes.targets.native.load_cpp", "host", [SCALAR])


def test_init_may_call_torch_functions_but_not_reexported_modules_or_parameterless_layers():
    assert init_call("torch.where") and init_call("torch.nn.init.kaiming_uniform_") and init_call("torch.nn.Linear")
    assert not init_call("torch.threading.Thread") and not init_call("torch.os.system")
    assert not init_call("torch.nn.ReLU") and not init_call("torch._C._nn.gelu")


@pytest.mark.parametrize("path", ["torch.from_file", "torch.load", "torch.save", "torch.set_num_threads",
                                  "torch.set_flush_denormal", "torch.manual_seed", "torch.multiprocessing.spawn",
                                  "torch.hub.load", "torch.package.PackageImporter", "torch.classes.load_library",
                                  "torch.autograd.set_detect_anomaly", "torch.cuda.set_per_process_memory_fraction"])
def test_init_may_not_call_torch_settings_files_processes_or_loaders(path):
    assert not init_call(path)
    with pytest.raises(Refused, match="not a tensor function"):
        path_value(path, "init")


def test_init_may_call_tensor_functions_of_every_kind():
    assert all(init_call(path) for path in ("torch.cat", "torch.einsum", "torch.nn.functional.pad", "torch.linalg.inv",
                                            "torch.fft.rfft", "torch.special.erf", "torch.Generator"))


def test_languages_of_paths():
    assert language_of("sandboxes.targets.native.load_cpp") == "native"
    assert language_of("triton.language.load") == "triton" and language_of("triton") == "triton"
    assert language_of("torch.empty") is None
