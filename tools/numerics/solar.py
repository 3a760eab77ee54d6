"""Tool: offline multi-agent RL on the cooperative grid game with or without SOLAR-style shaping."""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from numerics.solar.data import collect
from numerics.solar.game import GridGame
from numerics.solar.learn import LearnConfig, learn
from numerics.solar.model import WorldModel
from tools.base import Tool


class SolarArgs(BaseModel):
    """Learn a joint policy for two agents on a 5x5 grid from an offline dataset of mixed quality."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["none", "solar", "potential", "bonus"] = Field(
        "solar", description="No shaping, plateau-gated potential shaping, always-on potential shaping, or a "
                             "non-potential bonus for agent 1 on the goal.")
    episodes: int = Field(60, ge=5, le=500, description="Episodes in the offline dataset.")
    expert_share: float = Field(0.3, ge=0, le=1, description="Share of the episodes from the noisy expert.")
    iterations: int = Field(400, ge=10, le=5000, description="Rollout iterations of the learner.")
    seed: int = Field(0, description="Seed of the dataset and the learner.")


def solar_learn(args: SolarArgs) -> dict:
    """The greedy success-rate curve on the true game, when shaping switched on, and the final success."""
    game = GridGame()
    data = collect(game, np.random.default_rng(args.seed), episodes=args.episodes, expert_share=args.expert_share)
    _, curve = learn(WorldModel(game, data), game.starts(), args.mode, np.random.default_rng(args.seed + 1000),
                     LearnConfig(iterations=args.iterations))
    return {"transitions": len(data.states), "success_curve": curve.success, "shaping_from": curve.shaping_from,
            "final_success": curve.success[-1] if curve.success else None}


SOLAR_TOOL = Tool("solar_learn", solar_learn.__doc__ or "", SolarArgs, solar_learn, group="numerics",
                  capabilities=("compute",))
