"""What the contract harness may know of a game beyond its registration: nothing is required.

A game with no case here is played with defaults (every player count from its minimum to five, default options,
no lexicon, values from the view's legal values or at random). A case makes the random games reach further: the
player counts and options to mix, a small word list, and a ``choose`` that fills an offered action's fields from
the view (the same view a player's page gets) where random values would almost never be legal.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, WordList

Chooser = Callable[[Game, dict[str, Any], dict[str, Any], random.Random], dict[str, Any] | None]


@dataclass(frozen=True)
class Case:
    players: list[int] = field(default_factory=list)
    options: list[dict[str, Any]] = field(default_factory=list)
    lexicon: WordList | None = None
    choose: Chooser | None = None
    games: int = 200  # random games per run
    steps: int = 150  # moves per game at most
    removals: bool = True


CASES: dict[str, Case] = {}


def _grabble() -> Case:
    from . import grabble

    return Case(players=[2, 3, 4], options=grabble.OPTIONS, lexicon=grabble.LEXICON, choose=grabble.choose, games=30)


CASES["grabble"] = _grabble()


def case_for(slug: str) -> Case:
    return CASES.get(slug, Case())
