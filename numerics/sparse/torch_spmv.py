"""MACKO SpMV in torch on any device: decodes the 4-bit gaps on every call (no cached column indices)."""

from __future__ import annotations

import torch

from numerics.sparse.macko import MackoMatrix


def to_tensors(matrix: MackoMatrix, device: str = "cpu") -> dict[str, torch.Tensor]:
    """The compressed arrays on ``device``, plus each entry's row (shared by every call)."""
    lengths = torch.from_numpy(matrix.row_ptr).diff().long()
    return {"values": torch.from_numpy(matrix.values).to(device),
            "gaps": torch.from_numpy(matrix.gaps).to(device),
            "row_ptr": torch.from_numpy(matrix.row_ptr).long().to(device),
            "rows": torch.repeat_interleave(torch.arange(matrix.shape[0]), lengths).to(device)}


def spmv(arrays: dict[str, torch.Tensor], x: torch.Tensor, rows: int) -> torch.Tensor:
    """y = A x in fp32 from the compressed arrays."""
    packed = arrays["gaps"]
    steps = torch.stack([packed & 15, packed >> 4], dim=1).flatten().long() + 1
    running = steps.cumsum(0)
    base = torch.cat([running.new_zeros(1), running])[arrays["row_ptr"][:-1]]
    columns = (running - base[arrays["rows"]] - 1).clamp_max(x.numel() - 1)
    products = arrays["values"].float() * x.float()[columns]
    return torch.zeros(rows, dtype=torch.float32, device=x.device).index_add_(0, arrays["rows"], products)
