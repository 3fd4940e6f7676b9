"""Seeded randomness kept inside the game state, so a game replays exactly from its move log.

A state holds ``seed`` and ``draws`` (how many random operations so far). Each operation seeds a
fresh ``random.Random`` from both, then counts itself, so the n-th shuffle of a game is always the
same whatever happened to the process in between (a restart included).
"""

import random
from typing import Any, TypeVar

T = TypeVar("T")


def new_rng_state(seed: int) -> dict[str, int]:
    return {"seed": int(seed), "draws": 0}


def _next_random(state: dict[str, Any]) -> random.Random:
    rng_state = state["rng"]
    rng = random.Random(f"{rng_state['seed']}:{rng_state['draws']}")
    rng_state["draws"] += 1
    return rng


def shuffled(state: dict[str, Any], items: list[T]) -> list[T]:
    """A shuffled copy of ``items``; advances the state's random counter."""
    copy = list(items)
    _next_random(state).shuffle(copy)
    return copy


def randint(state: dict[str, Any], low: int, high: int) -> int:
    return _next_random(state).randint(low, high)
