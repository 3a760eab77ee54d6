"""Chip configs: the documented 910B2 default and user-described chips."""

import pytest

from sandboxes.errors import UserError
from sandboxes.targets.npu.chip import ChipConfig, available_chips, load_chip


def test_default_is_a_910b2_and_every_field_is_documented():
    chip = ChipConfig()
    assert (chip.aiv_cores, chip.aic_cores, chip.ub_bytes, chip.l0c_bytes) == (48, 24, 196352, 131072)
    for name, field in ChipConfig.model_fields.items():
        assert field.description, name


def test_named_and_file_chips(tmp_path):
    assert "ascend910a" in available_chips()
    assert load_chip("ascend910a").aic_cores == 32
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\nclock_mhz = 1000.0\naiv_cores = 4\n')
    assert load_chip(path).aiv_cores == 4
    with pytest.raises(UserError, match="unknown NPU chip"):
        load_chip("nope")
    path.write_text("bogus_field = 1\n")
    with pytest.raises(UserError, match="bad chip config"):
        load_chip(path)
