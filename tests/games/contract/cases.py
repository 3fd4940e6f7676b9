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


def _choose_pala(rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """Pala: Cancel cards remove exactly as many cards as the view's ``cancel`` says; the rest from legal values."""
    if spec["type"] == "cancel":
        need, cards = view["body"]["cancel"]["need"], [c["id"] for c in view["body"]["cancel"]["cards"]]
        return {"type": "cancel", "cards": rng.sample(cards, need)}
    return None


CASES: dict[str, Case] = {
    "pala": Case(
        players=[3, 4, 5],
        options=[
            {"rounds": 1},
            {"rounds": 2, "variant": "impressionism"},
            {"rounds": 1, "variant": "impressionism", "ties": "auto", "banks": "hidden"},
            {"rounds": 2, "ties": "auto", "card_language": "spa"},
            {"rounds": 1, "variant": "impressionism", "five_player_board": "two", "cancels": "auto"},
            {},
            {"variant": "impressionism", "card_language": "grc"},
        ],
        choose=_choose_pala,
        games=40,
        steps=160,
    ),
}


def case_for(slug: str) -> Case:
    return CASES.get(slug, Case())
