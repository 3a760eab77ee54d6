import pytest

from sandboxes.errors import UserError
from tools.numerics.decentralized import DECENTRALIZED_TOOL


def test_tool_compares_methods_without_attackers():
    result = DECENTRALIZED_TOOL.invoke({"nodes": 10, "methods": ["dsgd", "bred"], "iterations": 600, "seed": 2})
    assert result["final_error"]["bred"] < 1e-10 < result["final_error"]["dsgd"]
    assert 0 < result["spectral_gap"] <= 1 and result["trim"] == 0


def test_tool_validates_arguments():
    with pytest.raises(UserError, match="nodes"):
        DECENTRALIZED_TOOL.invoke({"nodes": 1})
    with pytest.raises(ValueError, match="unknown methods"):
        DECENTRALIZED_TOOL.invoke({"methods": ["adam"]})
