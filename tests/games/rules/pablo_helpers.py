"""Helpers for the Pablo rules tests: cards by name, and tables arranged card by card."""

from typing import Any

from games.engine import Context
from games.rules.pablo import RULES
from games.rules.pablo.deck import RANKS, SUITS

CTX = Context(None, 0.0)


def card(name: str) -> int:
    """``"5H"`` → the id of the five of hearts; ``"10S"``, ``"KD"``…"""
    return SUITS.index(name[-1]) * len(RANKS) + RANKS.index(name[:-1])


def cards(*names: str) -> list[int]:
    return [card(n) for n in names]


def playing(fields: list[list[str]], *, draw: list[str] = (), discard: list[str] = (), turn: int = 0, **options: Any):
    """A round in play, on ``turn``'s draw, with the fields, draw pile (last = top) and discard pile (last = top)
    given; every other card is put under the draw pile."""
    state, _ = RULES.new_game(len(fields), options, 1)
    placed = [c for f in fields for c in cards(*f)] + cards(*draw) + cards(*discard)
    rest = [c for c in range(52) if c not in placed]
    state.update(
        fields=[cards(*f) for f in fields],
        draw=rest + cards(*draw),
        discard=cards(*discard),
        phase="draw",
        turn=turn,
        starter=turn,
        ready=[True] * len(fields),
        match_open=bool(discard),
    )
    return state


def act(state: dict[str, Any], seat: int | None, **action: Any):
    return RULES.apply(state, seat, action, CTX)


def offered(state: dict[str, Any], seat: int | None) -> set[str]:
    return {a["type"] for a in RULES.view(state, seat)["actions"]}


def slot_view(state: dict[str, Any], viewer: int | None, owner: int, slot: int) -> dict[str, Any]:
    return RULES.view(state, viewer)["body"]["fields"][owner]["slots"][slot]
