"""OpSpec: host calls and template placeholders per family."""

from sandboxes.targets.npu.templates.ops import ELEMENTWISE, OpSpec


def test_host_calls():
    assert OpSpec("add", "elementwise", ["a", "b"]).host_call() == "run_elementwise(a, b)"
    norm = OpSpec("layer_norm", "norm", ["x"], {"weight": "self.n.weight"})
    assert norm.host_call() == "run_norm(x, self.n.weight, None)"
    assert OpSpec("matmul", "matmul", ["a", "b"], {"transpose_b": True}).host_call() == \
        "run_matmul(a, b, transpose_b=True)"
    assert OpSpec("softmax", "softmax", ["x"]).host_call() == "run_softmax(x)"


def test_template_values_fill_the_family_placeholders():
    values = OpSpec("leaky_relu", "elementwise", ["x"], {"negative_slope": 0.2}).template_values()
    assert values["INPUTS"] == "1" and "LeakyRelu(y, x, 0.2, n)" in values["COMPUTE"]
    assert OpSpec("log_softmax", "softmax", ["x"]).template_values() == {"LOG": "True"}
    assert OpSpec("rms_norm", "norm", ["x"], {"eps": 1e-6}).template_values() == {"MODE": "rms", "EPS": "1e-06"}
    assert OpSpec("min_rows", "row_reduce", ["x"]).template_values() == {"REDUCE": "min"}
    assert all(code.strip() for _, code in ELEMENTWISE.values())
