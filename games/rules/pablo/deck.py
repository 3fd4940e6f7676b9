"""The 52-card deck (no jokers) and what each card is worth.

Ids 0..51 run suit by suit (spades, hearts, diamonds, clubs), ace to king. An ace is worth −1, 2 to 10 their face
value, jack, queen and king 10, and the red kings (hearts and diamonds) 0. The 10, jack, queen and king are the
special cards: each has an action when it is drawn and discarded in the same turn.
"""

from typing import Any

SUITS = ("S", "H", "D", "C")
RED = ("H", "D")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK_SIZE = len(SUITS) * len(RANKS)

# The action a special card gives when drawn and discarded in the same turn.
PEEK, SPY, SWAP, KING = "peek", "spy", "swap", "king"
SPECIALS = {"10": PEEK, "J": SPY, "Q": SWAP, "K": KING}


def rank(card: int) -> str:
    return RANKS[card % len(RANKS)]


def suit(card: int) -> str:
    return SUITS[card // len(RANKS)]


def value(card: int) -> int:
    r = rank(card)
    if r == "A":
        return -1
    if r == "K":
        return 0 if suit(card) in RED else 10
    if r in ("J", "Q"):
        return 10
    return int(r)


def special(card: int) -> str | None:
    """The action of a special card (``None`` for the others)."""
    return SPECIALS.get(rank(card))


def face(card: int) -> dict[str, Any]:
    """A card face up, as views and events show it."""
    return {"card": card, "rank": rank(card), "suit": suit(card), "value": value(card)}
