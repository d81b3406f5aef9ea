"""Timing helpers shared by the benchmark groups: per-call samples, median and p95."""

from __future__ import annotations

import gc
import math
import os
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
Figures = dict[str, Any]


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    """Seconds taken by one call of ``fn``, and its result."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def sample(fn: Callable[[], object], runs: int, warmup: int = 1) -> list[float]:
    """Seconds per call of ``fn`` over ``runs`` calls, after ``warmup`` untimed calls."""
    return sample_each([fn], runs, warmup)


def sample_each(fns: Iterable[Callable[[], object]], rounds: int, warmup: int = 1
                ) -> list[float]:
    """Seconds per call of each of ``fns``, ``rounds`` times over, after ``warmup`` rounds."""
    calls = list(fns)
    for _ in range(warmup):
        for fn in calls:
            fn()
    gc.collect()
    seconds: list[float] = []
    for _ in range(rounds):
        for fn in calls:
            start = time.perf_counter()
            fn()
            seconds.append(time.perf_counter() - start)
    return seconds


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def p95(samples: Sequence[float]) -> float:
    """Nearest-rank 95th percentile (the largest sample when there are fewer than 20)."""
    ordered = sorted(samples)
    return ordered[max(math.ceil(0.95 * len(ordered)) - 1, 0)]


def ms(seconds: float) -> float:
    return round(seconds * 1e3, 3)


def us(seconds: float) -> float:
    return round(seconds * 1e6, 2)


def summary_ms(prefix: str, samples: Sequence[float]) -> Figures:
    """``{prefix}_median_ms`` and ``{prefix}_p95_ms`` of per-call samples in seconds."""
    return {f"{prefix}_median_ms": ms(median(samples)), f"{prefix}_p95_ms": ms(p95(samples))}


def spread_ms(prefix: str, samples: Sequence[float]) -> Figures:
    """:func:`summary_ms` and the spread: fastest, slowest and how many samples."""
    return {**summary_ms(prefix, samples), f"{prefix}_min_ms": ms(min(samples)),
            f"{prefix}_max_ms": ms(max(samples)), f"{prefix}_n": len(samples)}


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (the machine is shared: report them with the
    figures)."""
    return [round(value, 2) for value in os.getloadavg()]
