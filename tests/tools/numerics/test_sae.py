import numpy as np
import pytest
import torch

from tools.hostpaths import HostPaths
from tools.numerics.sae import load_activations, make_sae_tools


def test_load_activations_checks_shape(tmp_path):
    np.save(tmp_path / "a.npy", np.zeros((4, 3), dtype=np.float32))
    torch.save(torch.zeros(5), tmp_path / "b.pt")
    assert load_activations(str(tmp_path / "a.npy")).shape == (4, 3)
    with pytest.raises(ValueError, match="2-D"):
        load_activations(str(tmp_path / "b.pt"))
    with pytest.raises(FileNotFoundError):
        load_activations(str(tmp_path / "missing.npy"))


def test_tool_recommends_an_l0_from_a_file(tmp_path):
    generator = torch.Generator().manual_seed(0)
    directions = torch.linalg.qr(torch.randn(16, 8, generator=generator))[0].T
    fires = (torch.rand(3000, 8, generator=generator) < 0.25).float()
    np.save(tmp_path / "acts.npy", (fires @ directions).numpy())
    tool, = make_sae_tools(HostPaths(tmp_path))
    result = tool.invoke({"path": str(tmp_path / "acts.npy"), "k_values": [1, 2, 4], "width": 8, "steps": 80})
    assert result["recommended_l0"] in (1, 2, 4)
    assert [row["k"] for row in result["curve"]] == [1, 2, 4]
