"""Summary statistics with their uncertainty: what a simulation report prints.

Pure functions of NumPy arrays. Intervals are two-sided at the confidence given
(95 % by default): Wilson's score interval for a proportion, the normal
interval for a mean and for a difference of means (paired when the two runs
share their dice, as ``kosti simulate --compare`` does).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
from numpy.typing import ArrayLike

QUANTILES: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)
"""The quantiles a report shows."""


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal critical value (1.959… for 95 %)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence is between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True)
class Interval:
    """An estimate with the bounds of its confidence interval."""

    estimate: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def as_dict(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


def wilson(successes: int, trials: int, confidence: float = 0.95) -> Interval:
    """Wilson's score interval for a proportion; stays inside [0, 1] even at 0 or all successes.

    With no trials the estimate is 0 and the interval is all of [0, 1].
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials is not a proportion")
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    z = z_value(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # at 0 or all successes the bound is exactly 0 or 1 (the formula leaves rounding dust)
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return Interval(p, low, high)


def mean_interval(values: ArrayLike, confidence: float = 0.95) -> Interval:
    """The sample mean with its normal interval (± z · sd / √n); a point for fewer than two values."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("the mean of no values is undefined")
    mean = float(x.mean())
    if x.size < 2:
        return Interval(mean, mean, mean)
    half = z_value(confidence) * float(x.std(ddof=1)) / math.sqrt(x.size)
    return Interval(mean, mean - half, mean + half)


def paired_difference(a: ArrayLike, b: ArrayLike, confidence: float = 0.95) -> Interval:
    """Mean of ``a − b`` over matched pairs (same game index, same dice seed) with its interval.

    Pairing removes the variance the two runs share, which is what common random
    numbers are for; the pairs themselves are independent, so the normal interval holds.
    """
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"paired samples need equal sizes, not {x.shape} and {y.shape}")
    return mean_interval(x - y, confidence)


def welch_difference(a: ArrayLike, b: ArrayLike, confidence: float = 0.95) -> Interval:
    """Difference of the means of two independent samples, ± z · √(s²ₐ/nₐ + s²ᵦ/nᵦ)."""
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.size < 2 or y.size < 2:
        raise ValueError("each sample needs two values at least")
    diff = float(x.mean() - y.mean())
    half = z_value(confidence) * math.sqrt(x.var(ddof=1) / x.size + y.var(ddof=1) / y.size)
    return Interval(diff, diff - half, diff + half)


@dataclass(frozen=True)
class Distribution:
    """Mean, standard deviation and quantiles of a sample of scores."""

    count: int
    mean: Interval
    sd: float
    minimum: float
    maximum: float
    quantiles: dict[float, float]

    def as_dict(self) -> dict[str, object]:
        return {
            "count": self.count,
            "mean": self.mean.as_dict(),
            "sd": self.sd,
            "min": self.minimum,
            "max": self.maximum,
            "quantiles": {f"{q:g}": v for q, v in self.quantiles.items()},
        }


def describe(values: ArrayLike, quantiles: Sequence[float] = QUANTILES) -> Distribution:
    """The :class:`Distribution` of a non-empty sample."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("an empty sample has no distribution")
    qs = np.quantile(x, list(quantiles)) if quantiles else np.array([])
    return Distribution(
        count=int(x.size),
        mean=mean_interval(x),
        sd=float(x.std(ddof=1)) if x.size > 1 else 0.0,
        minimum=float(x.min()),
        maximum=float(x.max()),
        quantiles={q: float(v) for q, v in zip(quantiles, qs, strict=True)},
    )


def histogram_edges(
    samples: Sequence[ArrayLike], bins: int = 20, span: tuple[float, float] | None = None
) -> np.ndarray:
    """Common bin edges for several samples of integer scores, covering every value.

    The width is a round whole number (1, 2, 5, 10, 20, 25, 50, …) that cuts ``span``
    (default: from the least to the greatest value) into at most about ``bins`` bins;
    edges are multiples of the width.
    """
    arrays = [np.asarray(s, dtype=float) for s in samples if np.asarray(s).size]
    if not arrays:
        return np.array([0.0, 1.0])
    low = math.floor(min(float(a.min()) for a in arrays))
    high = math.floor(max(float(a.max()) for a in arrays)) + 1
    first, last = span if span is not None else (low, high)
    rough = max(1.0, (last - first) / max(1, bins))
    scale = 10 ** math.floor(math.log10(rough))
    steps = (1, 2, 2.5, 5, 10) if scale >= 10 else (1, 2, 5, 10)
    width = next(m * scale for m in steps if m * scale >= rough)
    start = math.floor(low / width) * width
    return np.arange(start, high + width, width, dtype=float)
