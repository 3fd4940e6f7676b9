"""Decks of cards (and bags of tiles, which behave the same) identified by integer ids.

A deck is built from a recipe: ``[(fields, count), ...]`` gives cards ``{"id": n, **fields}`` with
ids 0..N-1 in recipe order. States hold only ids (so "every card is in exactly one place" is a
check over lists of ints) and look card faces up in the deck, which a game rebuilds from its options.
"""

from collections.abc import Iterable
from typing import Any

from .rng import shuffled

Card = dict[str, Any]


def build_deck(recipe: Iterable[tuple[dict[str, Any], int]], copies: int = 1) -> list[Card]:
    cards: list[Card] = []
    for _ in range(copies):
        for fields, count in recipe:
            for _ in range(count):
                cards.append({"id": len(cards), **fields})
    return cards


def shuffled_ids(state: dict[str, Any], deck: list[Card]) -> list[int]:
    return shuffled(state, [card["id"] for card in deck])


def deal(pile: list[int], count: int) -> list[int]:
    """Take ``count`` ids off the top (the end) of ``pile``, in place; fewer if it runs out."""
    taken = pile[len(pile) - count :] if count else []
    del pile[len(pile) - len(taken) :]
    taken.reverse()
    return taken


def take(held: list[int], ids: Iterable[int]) -> list[int]:
    """Remove ``ids`` from ``held`` in place; ``ValueError`` if any is not held (or repeated)."""
    wanted = list(ids)
    if len(set(wanted)) != len(wanted):
        raise ValueError("the same card twice")
    missing = [i for i in wanted if i not in held]
    if missing:
        raise ValueError(f"not held: {missing}")
    for i in wanted:
        held.remove(i)
    return wanted
