"""Bidding: Pointillism's colour chips (or the white null chip) and Impressionism's bid board.

Pointillism: each player in turn from the dealer puts out one chip of each colour they mean to win a trick in, or
the white chip alone (a null bid: no tricks at all). Impressionism: from the dealer, clockwise, each player puts a
card from their hand on an open slot of the board or passes, never a colour already on the board, until the board
is full; the board then says what each colour is worth at the end of the round.
"""

from itertools import combinations
from typing import Any

from games.engine import AppError
from games.engine.errors import NOT_ALLOWED

from .deck import COLOURS, colour

WHITE = "white"
POINTILLISM, IMPRESSIONISM = "pointillism", "impressionism"

# Pointillism: the game's goal and a null bid's worth, by the number of players.
POINT_GOAL = {3: 100, 4: 70, 5: 30}
NULL_BID = {3: 25, 4: 7, 5: 2}
RAINBOW_BONUS = 100
# Impressionism: the game ends once anyone reaches the threshold.
THRESHOLD = {3: 40, 4: 45, 5: 50}

# The bid boards' slots, in board order, by the number of players (5 players: a table option).
BOARDS: dict[str, tuple[str, ...]] = {
    "3": ("face", "two", "cancel"),
    "4": ("face", "one", "one", "cancel"),
    "5": ("face", "one", "one", "zero", "cancel"),
    "5-two": ("face", "two", "one", "zero", "cancel"),
}
SLOT_POINTS = {"two": 2, "one": 1, "zero": 0}

# Every legal Pointillism bid: the white chip alone, or one to six different colours (in wheel order).
LEGAL_BIDS: tuple[tuple[str, ...], ...] = (
    (WHITE,),
    *(combo for size in range(1, len(COLOURS) + 1) for combo in combinations(COLOURS, size)),
)


def board_for(players: int, five_player_board: str) -> list[str]:
    key = str(players) if players < 5 else ("5-two" if five_player_board == "two" else "5")
    return list(BOARDS[key])


def clean_bid(chips: list[Any]) -> list[str]:
    """The chips of a Pointillism bid in wheel order, or :class:`AppError` if they are not a legal bid."""
    if not chips:
        raise AppError(NOT_ALLOWED, "Bid at least one colour, or the white chip for a null bid.")
    if not all(isinstance(c, str) for c in chips) or len(set(chips)) != len(chips):
        raise AppError(NOT_ALLOWED, "Each chip once, by colour name.")
    if WHITE in chips:
        if len(chips) > 1:
            raise AppError(NOT_ALLOWED, "The white chip (a null bid) is never combined with colours.")
        return [WHITE]
    unknown = [c for c in chips if c not in COLOURS]
    if unknown:
        raise AppError(NOT_ALLOWED, f"There is no {unknown[0][:20]} chip.")
    return [c for c in COLOURS if c in chips]


def board_colours(board: list[dict[str, Any]]) -> set[str]:
    return {colour(slot["card"]) for slot in board if slot["card"] is not None}


def biddable_cards(hand: list[int], board: list[dict[str, Any]]) -> list[int]:
    """The cards of ``hand`` that may go on the board: colours not on it yet."""
    used = board_colours(board)
    return [card for card in hand if colour(card) not in used]


def open_slots(board: list[dict[str, Any]]) -> list[int]:
    return [i for i, slot in enumerate(board) if slot["card"] is None]
