"""Worker-side hooks for real Ascend NPUs (run only inside a CANN container with torch_npu)."""

from __future__ import annotations

from typing import Any, Callable

from sandboxes.targets.base import RuntimeHooks


class AscendHooks(RuntimeHooks):
    """Tensors on ``npu``, stream synchronisation and NPU event timing through torch_npu."""

    device = "npu"

    def synchronize(self) -> None:
        import torch

        torch.npu.synchronize()

    def device_timer(self) -> Callable[[Callable[[], Any]], tuple[Any, float]] | None:
        import torch

        def timed(call: Callable[[], Any]) -> tuple[Any, float]:
            start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
            start.record()
            result = call()
            end.record()
            end.synchronize()
            return result, float(start.elapsed_time(end))
        return timed


HOOKS = AscendHooks()
