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

from .word_cards import GENEROUS, SPANISH, choose_palabras_cortas, choose_solitario

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


CASES: dict[str, Case] = {
    "palabras_cortas": Case(
        players=[2, 3, 4],
        options=[
            {"checking": "challenge"},
            {"checking": "challenge", "deck": "spanish", "refused_word": "against", "floor_zero": False},
            {"checking": "automatic", "two_player_bonus": "most"},
        ],
        lexicon=SPANISH,
        choose=choose_palabras_cortas,
        games=25,
        steps=250,
    ),
    "palabras_cortas_solitario": Case(
        options=[{"deck": "standard"}, {"deck": "spanish"}],
        lexicon=GENEROUS,
        choose=choose_solitario,
        games=60,
        steps=60,
    ),
}


def case_for(slug: str) -> Case:
    return CASES.get(slug, Case())
