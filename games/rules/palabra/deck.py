"""The Palabra deck: 115 letter cards (``games/rules/data/palabra-deck.csv``), 3 wild cards, 2 vowel cards, 2 jokers.

Card faces are plain dicts ``{"id", "kind", "letter", "value", "colors", "stars"}``; ``colors`` is a string of
``R B G Y`` (``"RB"`` and ``"GY"`` are the two-colour cards, wild and vowel cards have all four, jokers none).
Wild and vowel cards have no printed letter: the player names one when spelling with them.
"""

import csv
from functools import cache
from pathlib import Path

from games.engine.cards import Card, build_deck

DECK_CSV = Path(__file__).resolve().parent.parent / "data" / "palabra-deck.csv"

LETTER, WILD, VOWEL, JOKER = "letter", "wild", "vowel", "joker"
ALL_COLOURS = "RBGY"
VOWELS = "AEIOUY"  # the rulebook counts Y as a vowel, and a vowel card may stand for it
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HAND_SIZE = 7


def _letter_recipe() -> list[tuple[dict, int]]:
    with DECK_CSV.open(newline="", encoding="utf-8") as handle:
        return [
            (
                {
                    "kind": LETTER,
                    "letter": row["letter"],
                    "value": int(row["value"]),
                    "colors": row["colors"],
                    "stars": int(row["stars"]),
                },
                int(row["count"]),
            )
            for row in csv.DictReader(handle)
        ]


_LETTERS = _letter_recipe()
_WILDS = ({"kind": WILD, "letter": None, "value": 0, "colors": ALL_COLOURS, "stars": 0}, 3)
_VOWEL_CARDS = ({"kind": VOWEL, "letter": None, "value": 0, "colors": ALL_COLOURS, "stars": 0}, 2)
_JOKERS = ({"kind": JOKER, "letter": None, "value": 0, "colors": "", "stars": 0}, 2)


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
