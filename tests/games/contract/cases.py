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


def _pablo_target(
    view: dict[str, Any], field: dict[str, Any], owners: list[int], rng: random.Random
) -> tuple[int, int]:
    """An owner among ``owners`` and one of the slots of theirs that holds a card, as the view shows them."""
    owner = rng.choice(owners)
    slots = [s["slot"] for s in view["body"]["fields"][owner]["slots"] if not s.get("empty")]
    return owner, rng.choice(slots) if slots else rng.choice(field.get("choices") or [0])


def choose_pablo(rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """Pablo's targets name an owner and one of their slots: pick a slot that holds a card; a match often uses a
    card the viewer can see with the top card's rank, so that right matches happen as well as wrong ones."""
    fields = {f["name"]: f for f in spec["fields"]}
    if "owner" not in fields:
        return None
    action: dict[str, Any] = {"type": spec["type"]}
    owners = fields["owner"].get("choices") or []
    if not owners:
        return None
    owner, slot = _pablo_target(view, fields["slot"], owners, rng)
    if spec["type"] == "match":
        top = view["body"]["discard"]["top"]
        known = [
            (f["seat"], s["slot"])
            for f in view["body"]["fields"]
            for s in f["slots"]
            if f["seat"] in owners and top and s.get("rank") == top["rank"]
        ]
        if known and rng.random() < 0.8:
            owner, slot = rng.choice(known)
        action["top"] = fields["top"]["choices"][0]
        mine = fields["give"].get("choices") or []
        if owner != view["seat"] and mine:
            action["give"] = rng.choice(mine)
    if "mine" in fields:
        action["mine"] = rng.choice(fields["mine"].get("choices") or [0])
    action.update(owner=owner, slot=slot)
    return action


CASES: dict[str, Case] = {
    "pablo": Case(
        players=[2, 3, 4, 5],
        options=[{}, {"reminders": True}, {"number_words": "grc", "empty_field_queen": True}],
        choose=choose_pablo,
        games=60,
        steps=300,
    ),
}


def case_for(slug: str) -> Case:
    return CASES.get(slug, Case())
