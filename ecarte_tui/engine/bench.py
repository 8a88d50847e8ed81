"""The engine benchmark: random legal playouts and ECN parsing, through the public API."""

from __future__ import annotations

import random
import time

from .ecn import read_ecn, write_ecn
from .match import Match
from .rules import PRESETS, Rules


def random_match(rng: random.Random, rules: Rules) -> Match:
    """A whole match played with uniformly random legal actions."""
    m = Match(rules, first_dealer=rng.getrandbits(1))
    while not m.is_over:
        m.deal(rng)
        while m.to_move is not None:
            legal = m.legal_actions()
            m.apply(legal[int(rng.random() * len(legal))])
    return m


def hands_per_second(seconds: float = 2.0, seed: int = 1) -> float:
    rng = random.Random(seed)
    presets = list(PRESETS.values())
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    m = Match(presets[0], first_dealer=0)
    i = 0
    while True:
        if m.is_over:
            i += 1
            m = Match(presets[i % len(presets)], first_dealer=0)
        m.deal(rng)
        while m.to_move is not None:
            legal = m.legal_actions()
            m.apply(legal[int(rng.random() * len(legal))])
        hands += 1
        if hands % 256 == 0 and time.perf_counter() >= deadline:
            break
    return hands / (time.perf_counter() - start)


def records_per_second(seconds: float = 2.0, seed: int = 2) -> float:
    rng = random.Random(seed)
    texts = [write_ecn(random_match(rng, r)) for r in PRESETS.values() for _ in range(20)]
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for t in texts:
            read_ecn(t)
        n += len(texts)
    return n / (time.perf_counter() - start)


def run_engine_bench(seconds: float = 2.0) -> dict[str, float]:
    return {
        "hands_per_s": round(hands_per_second(seconds), 1),
        "records_per_s": round(records_per_second(seconds), 1),
    }
