"""Configuration of the Q-value experience memory (every constant of the method lives here)."""

from __future__ import annotations

from typing import Literal

from sandboxes.settings import Config


class QMemoryConfig(Config):
    """Retrieval, Q-learning and storage settings of the experience memory."""

    alpha: float = 0.3
    """Monte-Carlo step size in Q <- Q + alpha (r - Q)."""
    epsilon: float = 0.1
    """Probability of picking a random candidate instead of the highest-Q one, per slot."""
    q_init: float = 0.0
    """Q-value of a (stage, state signature, memory id) key never updated before."""
    top_n: int = 4
    """N: how many experience items are put into the model's context."""
    recall_factor: float = 3.0
    """lambda: dense recall keeps lambda*N candidates by similarity before the Q-value stage."""
    api_top_n: int = 2
    """How many API templates are retrieved (by similarity only)."""
    selection: Literal["q-greedy", "blended", "similarity"] = "q-greedy"
    """q-greedy: epsilon-greedy by stage Q over the recalled candidates; blended: z-scored similarity plus
    z-scored, clipped Q; similarity: the top N by similarity (the no-Q ablation)."""
    blend_weight: float = 1.0
    """Weight of the z-scored Q term in the blended score."""
    q_z_clip: float = 2.0
    """The z-scored Q term of the blended score is clipped to [-q_z_clip, q_z_clip]."""
    popart_beta: float = 0.1
    """Step size of PopArt's running mean and second moment of refine rewards."""
    popart_min_std: float = 1e-2
    """Floor on PopArt's standard deviation so that early rewards are not blown up."""
    embedding: str = "auto"
    """'hashed-tfidf', 'sentence-transformer:<local model path or cached name>', or 'auto' (a local
    sentence-transformer if the package and a cached model are installed, else hashed TF-IDF)."""
    embedding_dim: int = 256
    """Number of hash buckets of the hashed TF-IDF embedding."""
    idf_exact_below: int = 20000
    """Below this many entries the IDF weights are refitted whenever memory grows; above, when it grows 10%."""
    busy_timeout_ms: int = 30000
    """SQLite busy timeout: how long a writer waits for another worker's lock."""
    seed: int = 0
    """Seed of the epsilon-greedy random generator."""
