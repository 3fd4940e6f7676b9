"""Scoring a round: Pointillism's bids made and missed, Impressionism's bid board over each score pile."""

from typing import Any

from .bidding import NULL_BID, RAINBOW_BONUS, SLOT_POINTS, WHITE
from .deck import COLOURS, colour, value


def pointillism(bid: list[str] | None, won: list[str], players: int) -> dict[str, Any]:
    """One player's round: ``bid`` their chips, ``won`` the colour of each trick they won.

    A null bid scores the null value with no tricks won and loses it otherwise. A colour bid is made when every bid
    colour was won at least once: it scores the tricks won times the colours bid (+100 for all six, the rainbow);
    a missed bid scores 0."""
    bid = list(bid or [])
    tricks = len(won)
    detail: dict[str, Any] = {"bid": bid, "tricks": tricks, "won": {c: won.count(c) for c in COLOURS if c in won}}
    if bid == [WHITE]:
        made = tricks == 0
        points = NULL_BID[players] if made else -NULL_BID[players]
        return {**detail, "kind": "null", "made": made, "points": points}
    made = bool(bid) and all(c in won for c in bid)
    rainbow = made and len(bid) == len(COLOURS)
    points = tricks * len(bid) + (RAINBOW_BONUS if rainbow else 0) if made else 0
    return {**detail, "kind": "colours", "made": made, "rainbow": rainbow, "points": points}


def cancel_count(pile: list[int], board: dict[str, str]) -> tuple[int, list[int]]:
    """How many cards the Cancel cards of ``pile`` must remove, and the cards they may remove (counted cards of
    other colours)."""
    cancels = [c for c in pile if board.get(colour(c)) == "cancel"]
    others = [c for c in pile if colour(c) in board and board[colour(c)] != "cancel"]
    return min(len(cancels), len(others)), others


def impressionism(pile: list[int], board: dict[str, str], cancelled: list[int]) -> dict[str, Any]:
    """One player's round: ``pile`` the tricks they won and their hand, ``board`` each colour on the bid board and
    its slot, ``cancelled`` the cards their Cancel cards removed (as many as :func:`cancel_count` says).

    Colours off the board score nothing; each Cancel card removes one other counted card, and a Cancel card with
    nothing left to remove is -1; +0, +1, +2 cards score that, +Face cards their number."""
    lines = []
    points = 0
    spare_cancels = len([c for c in pile if board.get(colour(c)) == "cancel"]) - len(cancelled)
    for card in sorted(pile, key=lambda c: (COLOURS.index(colour(c)), value(c))):
        slot = board.get(colour(card))
        if slot is None:
            worth, how = 0, "off the board"
        elif slot == "cancel":
            worth, how = (-1, "cancel unused") if spare_cancels > 0 else (0, "cancel used")
            spare_cancels -= worth == -1
        elif card in cancelled:
            worth, how = 0, "cancelled"
        else:
            worth, how = (value(card) if slot == "face" else SLOT_POINTS[slot]), slot
        points += worth
        lines.append({"colour": colour(card), "value": value(card), "slot": slot, "how": how, "points": worth})
    return {"kind": "impressionism", "lines": lines, "points": points}


def best_cancels(others: list[int], count: int, board: dict[str, str]) -> list[int]:
    """The cancels that save the most points (for the automatic option): the dearest counted cards."""

    def worth(card: int) -> int:
        slot = board[colour(card)]
        return value(card) if slot == "face" else SLOT_POINTS[slot]

    return sorted(others, key=lambda c: (-worth(c), c))[:count]
