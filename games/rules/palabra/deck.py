"""The Palabra deck: 115 letter cards (:data:`LETTER_ROWS`), 3 wild cards, 2 vowel cards, 2 jokers.

Card faces are plain dicts ``{"id", "kind", "letter", "value", "colors", "stars"}``; ``colors`` is a string of
``R B G Y`` (``"RB"`` and ``"GY"`` are the two-colour cards, wild and vowel cards have all four, jokers none).
Wild and vowel cards have no printed letter: the player names one when spelling with them.

The deck is data in this module, so the rules read no file at import time or later.
"""

from functools import cache
from typing import Any

from games.engine.cards import Card, build_deck

LETTER, WILD, VOWEL, JOKER = "letter", "wild", "vowel", "joker"
ALL_COLOURS = "RBGY"
VOWELS = "AEIOUY"  # the rulebook counts Y as a vowel, and a vowel card may stand for it
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HAND_SIZE = 7

# The letter cards: (letter, value, colours, stars, how many), in deck order.
LETTER_ROWS: tuple[tuple[str, int, str, int, int], ...] = (
    ("A", 1, "B", 0, 3),
    ("A", 1, "G", 0, 2),
    ("A", 1, "R", 0, 3),
    ("A", 1, "Y", 0, 2),
    ("B", 4, "B", 0, 1),
    ("B", 4, "G", 3, 1),
    ("B", 4, "R", 0, 1),
    ("B", 4, "Y", 0, 1),
    ("C", 3, "G", 0, 1),
    ("C", 3, "RB", 0, 1),
    ("C", 3, "Y", 2, 1),
    ("D", 2, "G", 0, 1),
    ("D", 2, "RB", 2, 1),
    ("D", 2, "Y", 3, 1),
    ("E", 1, "B", 0, 3),
    ("E", 1, "G", 0, 3),
    ("E", 1, "R", 0, 3),
    ("E", 1, "Y", 0, 3),
    ("F", 4, "B", 2, 1),
    ("F", 4, "G", 2, 1),
    ("F", 4, "R", 0, 1),
    ("F", 4, "Y", 0, 1),
    ("G", 5, "B", 0, 1),
    ("G", 5, "G", 2, 1),
    ("G", 5, "R", 3, 1),
    ("G", 5, "Y", 0, 1),
    ("H", 4, "B", 0, 1),
    ("H", 4, "G", 0, 1),
    ("H", 4, "R", 2, 1),
    ("H", 4, "Y", 2, 1),
    ("I", 1, "B", 0, 2),
    ("I", 1, "G", 0, 3),
    ("I", 1, "R", 0, 2),
    ("I", 1, "Y", 0, 3),
    ("J", 9, "GY", 0, 1),
    ("J", 9, "RB", 0, 1),
    ("K", 6, "GY", 2, 1),
    ("K", 6, "RB", 3, 1),
    ("L", 2, "G", 0, 1),
    ("L", 2, "RB", 0, 1),
    ("L", 2, "Y", 3, 1),
    ("M", 3, "B", 0, 1),
    ("M", 3, "GY", 3, 1),
    ("M", 3, "R", 3, 1),
    ("N", 1, "B", 0, 1),
    ("N", 1, "G", 0, 1),
    ("N", 1, "G", 3, 1),
    ("N", 1, "R", 2, 1),
    ("N", 1, "RB", 0, 1),
    ("N", 1, "Y", 0, 2),
    ("O", 1, "B", 0, 2),
    ("O", 1, "G", 0, 2),
    ("O", 1, "R", 0, 2),
    ("O", 1, "Y", 0, 2),
    ("P", 2, "B", 3, 1),
    ("P", 2, "GY", 0, 1),
    ("P", 2, "R", 0, 1),
    ("Q", 10, "GY", 0, 1),
    ("Q", 10, "RB", 0, 1),
    ("R", 1, "B", 2, 1),
    ("R", 1, "GY", 0, 2),
    ("R", 1, "R", 0, 1),
    ("R", 1, "RB", 0, 1),
    ("S", 1, "B", 0, 1),
    ("S", 1, "G", 0, 1),
    ("S", 1, "R", 0, 1),
    ("S", 1, "RB", 2, 1),
    ("S", 1, "Y", 2, 1),
    ("T", 1, "G", 0, 1),
    ("T", 1, "GY", 0, 1),
    ("T", 1, "RB", 0, 2),
    ("T", 1, "Y", 0, 1),
    ("U", 1, "B", 2, 1),
    ("U", 1, "GY", 0, 1),
    ("U", 1, "R", 0, 1),
    ("V", 5, "B", 0, 1),
    ("V", 5, "GY", 0, 1),
    ("V", 5, "R", 2, 1),
    ("W", 5, "GY", 2, 1),
    ("W", 5, "RB", 0, 1),
    ("X", 8, "GY", 0, 1),
    ("X", 8, "RB", 0, 1),
    ("Y", 4, "B", 3, 1),
    ("Y", 4, "G", 2, 1),
    ("Y", 4, "R", 0, 1),
    ("Y", 4, "Y", 0, 1),
    ("Z", 10, "GY", 0, 1),
    ("Z", 10, "RB", 0, 1),
)

Recipe = tuple[dict[str, Any], int]  # a card's fields and how many such cards a deck holds

_LETTERS: list[Recipe] = [
    ({"kind": LETTER, "letter": letter, "value": value, "colors": colors, "stars": stars}, count)
    for letter, value, colors, stars, count in LETTER_ROWS
]
_WILDS: Recipe = ({"kind": WILD, "letter": None, "value": 0, "colors": ALL_COLOURS, "stars": 0}, 3)
_VOWEL_CARDS: Recipe = ({"kind": VOWEL, "letter": None, "value": 0, "colors": ALL_COLOURS, "stars": 0}, 2)
_JOKERS: Recipe = ({"kind": JOKER, "letter": None, "value": 0, "colors": "", "stars": 0}, 2)


@cache
def _deck(copies: int, jokers: bool) -> tuple[Card, ...]:
    recipe = [*_LETTERS, _WILDS, _VOWEL_CARDS, *([_JOKERS] if jokers else [])]
    return tuple(build_deck(recipe, copies=copies))


def deck_for(options: dict) -> tuple[Card, ...]:
    """The deck a table plays with (shared and cached: never mutate a card)."""
    return _deck(2 if options["double_deck"] else 1, not options["eliminate_high_score"])


def can_stand_for(card: Card, letter: str) -> bool:
    """Whether ``card`` may be played as ``letter`` (a letter card only as itself)."""
    if card["kind"] == LETTER:
        return card["letter"] == letter
    if card["kind"] == WILD:
        return letter in ALPHABET
    if card["kind"] == VOWEL:
        return letter in VOWELS
    return False


def cut_rank(card: Card) -> int:
    """How near Z a cut card is: A=1 .. Z=26; wild, vowel and joker cards name no letter, so rank 0."""
    return ALPHABET.index(card["letter"]) + 1 if card["kind"] == LETTER else 0
