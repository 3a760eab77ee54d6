"""OpSpec: host calls and template placeholders per family."""

from sandboxes.targets.npu.templates.ops import ELEMENTWISE, OpSpec


def test_host_calls():
    assert OpSpec("add", "elementwise", ["a", "b"]).host_call() == "run_elementwise(a, b)"
    norm = OpSpec("layer_norm", "norm", ["x"], {"weight": "self.n.weight"})
    assert norm.host_call() == "run_norm(x, self.n.weight, None)"
    assert OpSpec("matmul", "matmul", ["a", "b"], {"transpose_b": True}).host_call() == \
        "run_matmul(a, b, transpose_b=True)"
    assert OpSpec("softmax", "softmax", ["x"]).host_call() == "run_softmax(x)"
    fused = OpSpec("add+layer_norm", "norm", ["x", "r"], {"prologue": "add"})
    assert fused.host_call() == "run_norm(x, None, None, r)"
    assert OpSpec("conv2d", "conv2d", ["x", "self.c.weight", "self.c.bias"]).host_call() == \
        "run_conv2d(x, self.c.weight, self.c.bias)"


def test_template_values_fill_the_family_placeholders():
    values = OpSpec("leaky_relu", "elementwise", ["x"], {"negative_slope": 0.2}).template_values()
    assert values["INPUTS"] == "1" and "LeakyRelu(y, x, 0.2, n)" in values["COMPUTE"]
    assert OpSpec("log_softmax", "softmax", ["x"]).template_values() == {"LOG": "True"}
    rms = OpSpec("rms_norm", "norm", ["x"], {"eps": 1e-6}).template_values()
    assert rms["MODE"] == "rms" and rms["EPS"] == "1e-06" and rms["PROLOGUE"] == rms["STAGES"] == "False"
    fused = OpSpec("add+layer_norm+relu", "norm", ["x", "r"], {"norm": "layer_norm", "prologue": "add",
                                                              "stages": [OpSpec("relu", "elementwise", ["v1"])]})
    values = fused.template_values()
    assert values["MODE"] == "layer" and values["PROLOGUE_CODE"].strip() == "Add(x, x, r, n)"
    assert "Relu(y, x, n)" in values["COMPUTE"] and values["STAGES"] == "True"
    window = OpSpec("max_pool2d", "window", ["x"], {"kh": 2, "kw": 2, "stride": 2, "pad": 0}).template_values()
    assert window == {"KH": "2", "KW": "2", "STRIDE": "2", "PAD_H": "0", "PAD_W": "0", "DIL_H": "1", "DIL_W": "1",
                      "WINDOW": "max"}
    dilated = OpSpec("conv1d", "conv2d", ["x", "w"], {"kh": 1, "kw": 3, "stride": 3, "pad_h": 0, "pad_w": 2,
                                                      "dil_h": 1, "dil_w": 4}).template_values()
    assert (dilated["PAD_H"], dilated["PAD_W"], dilated["DIL_W"]) == ("0", "2", "4")
    assert OpSpec("min_rows", "row_reduce", ["x"]).template_values() == {"REDUCE": "min"}
    assert all(code.strip() for _, code in ELEMENTWISE.values())
