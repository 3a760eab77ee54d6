"""The Gaussian mechanism for (epsilon, delta)-DP and its accounting.

Accounting used throughout (also printed by ``agent bench epsvec``):

- Adjacency: add/remove one private example (one session, i.e. one person). The count ``n`` is treated as public.
- Query: the SUM of the per-example contributions, each clipped to L2 norm ``C``. Adding or removing one
  example moves the sum by at most ``C``, so its L2 sensitivity is ``Delta = C``; the released mean is the noisy
  sum divided by the public ``n`` (post-processing), i.e. the mean has sensitivity ``C / n``.
- Mechanism: add N(0, sigma^2 I). With ``mu = Delta / sigma`` it is mu-Gaussian-DP, and it is (epsilon, delta)-DP
  exactly when ``Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2) <= delta`` (the analytic Gaussian
  mechanism, Balle and Wang 2018, valid for every epsilon > 0). :func:`analytic_sigma` finds the smallest such
  sigma. The classical bound ``sigma = sqrt(2 ln(1.25/delta)) Delta / epsilon`` (valid for epsilon < 1) is
  :func:`classical_sigma`, shown beside it.
- Composition: k releases with the same sigma are together (sqrt(k) mu)-GDP (exact for Gaussian mechanisms), so a
  method that draws a fresh noisy vector per sample must use ``sqrt(k)`` times the noise for the same total
  (epsilon, delta). A vector released once and then reused is post-processing: the cost stays (epsilon, delta)
  for any number of samples.
"""

from __future__ import annotations

import math

from scipy.special import log_ndtr, ndtr


def gdp_delta(mu: float, epsilon: float) -> float:
    """The smallest delta for which a mu-GDP mechanism is (epsilon, delta)-DP."""
    if mu <= 0:
        return 0.0
    first = ndtr(-epsilon / mu + mu / 2)
    second = math.exp(min(epsilon + log_ndtr(-epsilon / mu - mu / 2), 0.0))
    return float(max(first - second, 0.0))


def _bisect(predicate, low: float, high: float, steps: int = 200) -> float:
    """The boundary of a monotone predicate (False at ``low``, True at ``high``) on a log scale."""
    for _ in range(steps):
        middle = math.sqrt(low * high)
        low, high = (low, middle) if predicate(middle) else (middle, high)
    return high


def analytic_sigma(epsilon: float, delta: float, sensitivity: float) -> float:
    """Smallest sigma with which N(0, sigma^2) noise on a query of L2 ``sensitivity`` is (epsilon, delta)-DP."""
    _check_budget(epsilon, delta)
    if math.isinf(epsilon):
        return 0.0
    scale = _bisect(lambda s: gdp_delta(1 / s, epsilon) <= delta, 1e-6, 1e6)  # sigma in units of the sensitivity
    return scale * sensitivity


def classical_sigma(epsilon: float, delta: float, sensitivity: float) -> float | None:
    """sqrt(2 ln(1.25/delta)) * sensitivity / epsilon, the textbook bound; None where it does not apply (eps >= 1)."""
    _check_budget(epsilon, delta)
    return math.sqrt(2 * math.log(1.25 / delta)) * sensitivity / epsilon if epsilon < 1 else None


def composed_epsilon(sigma: float, sensitivity: float, releases: int, delta: float) -> float:
    """Total epsilon (at ``delta``) of ``releases`` Gaussian releases with noise ``sigma`` (sqrt(k) mu-GDP)."""
    if sigma == 0:
        return math.inf
    mu = math.sqrt(releases) * sensitivity / sigma
    return _bisect(lambda e: gdp_delta(mu, e) <= delta, 1e-9, 1e4)


def per_release_sigma(epsilon: float, delta: float, sensitivity: float, releases: int) -> float:
    """Noise each of ``releases`` fresh Gaussian releases needs so that together they are (epsilon, delta)-DP."""
    return math.sqrt(releases) * analytic_sigma(epsilon, delta, sensitivity)


def _check_budget(epsilon: float, delta: float) -> None:
    if not epsilon > 0 or not 0 < delta < 1:
        raise ValueError(f"need epsilon > 0 and 0 < delta < 1, got epsilon={epsilon}, delta={delta}")
