"""Simulated profiles: one per kernel launch, and their sum over a forward pass (the "profiler")."""

from __future__ import annotations

from dataclasses import dataclass, field

from sandboxes.targets.npu.timeline import PIPES, Event


SATURATED = 0.8
"""GM bandwidth counts as the bottleneck only from this utilisation on."""


@dataclass
class LaunchProfile:
    """What one simulated launch cost. Every number is simulated."""

    kernel: str
    chip: str
    clock_mhz: float
    block_dim: int
    active_cores: int
    cycles: float
    makespan_cycles: float
    bandwidth_floor_cycles: float
    launch_cycles: float
    busy: dict[str, float]
    gm_read_bytes: int
    gm_write_bytes: int
    local_bytes: int
    instructions: int
    hbm_bytes_per_cycle: float = 0.0
    events: list[list[Event]] = field(default_factory=list)

    @property
    def window(self) -> float:
        """Core-cycles available to the pipes: active cores × the compute part of the launch."""
        return self.active_cores * (self.cycles - self.launch_cycles)


@dataclass
class Profile:
    """The sum of the launches of one forward pass."""

    launches: list[LaunchProfile]

    @property
    def cycles(self) -> float:
        return sum(p.cycles for p in self.launches)

    @property
    def clock_mhz(self) -> float:
        return self.launches[0].clock_mhz if self.launches else 0.0

    @property
    def time_us(self) -> float:
        return self.cycles / self.clock_mhz if self.launches else 0.0

    def pipe_busy(self) -> dict[str, float]:
        """Busy fraction of each pipe, averaged over active cores and the compute time of every launch."""
        window = sum(p.window for p in self.launches) or 1.0
        return {pipe: sum(p.busy[pipe] for p in self.launches) / window for pipe in PIPES}

    def gm_utilisation(self) -> float:
        """Fraction of the chip's GM bandwidth used over the compute part of the launches."""
        capacity = sum(p.hbm_bytes_per_cycle * (p.cycles - p.launch_cycles) for p in self.launches)
        return self.gm_bytes() / capacity if capacity else 0.0

    @property
    def bottleneck(self) -> str:
        """The busiest pipe, or ``GM bandwidth`` when shared global memory is near saturation and busier than any pipe."""
        if not self.launches:
            return "none"
        busy = self.pipe_busy()
        pipe = max(busy, key=busy.get)
        gm = self.gm_utilisation()
        return "GM bandwidth" if gm >= busy[pipe] and gm >= SATURATED else pipe

    def gm_bytes(self) -> int:
        return sum(p.gm_read_bytes + p.gm_write_bytes for p in self.launches)

    def to_dict(self, roofline_cycles: float | None = None) -> dict:
        data = {
            "simulated": True,
            "chip": self.launches[0].chip if self.launches else None,
            "cycles": round(self.cycles),
            "time_us": self.time_us,
            "launches": len(self.launches),
            "block_dim": [p.block_dim for p in self.launches],
            "pipe_busy": {k: round(v, 4) for k, v in self.pipe_busy().items()},
            "bottleneck": self.bottleneck,
            "gm_bandwidth_utilisation": round(self.gm_utilisation(), 4),
            "gm_bytes_read": sum(p.gm_read_bytes for p in self.launches),
            "gm_bytes_written": sum(p.gm_write_bytes for p in self.launches),
            "local_bytes": sum(p.local_bytes for p in self.launches),
            "launch_overhead_cycles": sum(p.launch_cycles for p in self.launches),
        }
        if roofline_cycles is not None:
            data["roofline_cycles"] = round(roofline_cycles)
            data["roofline_fraction"] = roofline_cycles / self.cycles if self.cycles else None
        return data

    def text(self, roofline_cycles: float | None = None) -> str:
        """The profiler report fed back to a model: plain lines, labelled simulated."""
        d = self.to_dict(roofline_cycles)
        lines = [f"[simulated {d['chip']}] {d['cycles']} cycles = {d['time_us']:.2f} us over "
                 f"{d['launches']} launch(es), block_dim {d['block_dim']}",
                 "pipe busy: " + ", ".join(f"{k} {v:.0%}" for k, v in d["pipe_busy"].items() if v > 0),
                 f"bottleneck: {d['bottleneck']} (GM bandwidth used {d['gm_bandwidth_utilisation']:.0%})",
                 f"GM bytes read {d['gm_bytes_read']}, written {d['gm_bytes_written']}; "
                 f"launch overhead {d['launch_overhead_cycles']:.0f} cycles"]
        if roofline_cycles is not None:
            lines.append(f"roofline lower bound {d['roofline_cycles']} cycles; this kernel reaches "
                         f"{d['roofline_fraction']:.1%} of it")
        return "\n".join(lines)
