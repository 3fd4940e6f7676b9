"""Grabble's board and tiles: the premium layout, the tile set, and how a word and a play score.

Pure data and arithmetic shared by the rules (:mod:`games.rules.grabble`), their previews and the move finder
(:mod:`games.rules.grabble.moves`), so that a preview's or a hint's score is the score the rules will give the play.
The board and the tile set are described in ``docs/games/grabble.md``.
"""

from collections.abc import Iterable
from functools import lru_cache
from math import ceil
from typing import Any

from games.engine.board import premium_squares
from games.engine.cards import build_deck

SIZE = 15
CENTRE = "H8"
RACK = 10
BONUS = 50
ALPHABET = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
# The letter each key a player may type stands for: the capital, the small letter (final sigma too) and its
# Beta Code transliteration (either case), so a page maps a key to a rack tile without knowing the alphabet.
BETA_CODE = "abgdezhqiklmncoprstufxyw"
KEYS = (
    {c: c for c in ALPHABET}
    | {c.lower(): c for c in ALPHABET}
    | {"ς": "Σ"}
    | {b: c for b, c in zip(BETA_CODE, ALPHABET, strict=True)}
    | {b.upper(): c for b, c in zip(BETA_CODE, ALPHABET, strict=True)}
)

PREMIUMS = premium_squares(
    {
        "TW": ["A1", "H1", "O1", "A8", "O8", "A15", "H15", "O15"],
        "DW": [
            "B2",
            "N2",
            "C3",
            "M3",
            "D4",
            "L4",
            "E5",
            "K5",
            "H8",
            "E11",
            "K11",
            "D12",
            "L12",
            "C13",
            "M13",
            "B14",
            "N14",
        ],
        "TL": ["F2", "J2", "B6", "F6", "J6", "N6", "B10", "F10", "J10", "N10", "F14", "J14"],
        "DL": [
            "D1",
            "L1",
            "G3",
            "I3",
            "A4",
            "H4",
            "O4",
            "C7",
            "G7",
            "I7",
            "M7",
            "D8",
            "L8",
            "C9",
            "G9",
            "I9",
            "M9",
            "A12",
            "H12",
            "O12",
            "G13",
            "I13",
            "D15",
            "L15",
        ],
    }
)
LETTER_FACTOR = {"DL": 2, "TL": 3}
WORD_FACTOR = {"DW": 2, "TW": 3}
# By square, for word_score (the move finder scores thousands of plays a rack).
_LETTER_FACTORS = {name: LETTER_FACTOR[kind] for name, kind in PREMIUMS.items() if kind in LETTER_FACTOR}
_WORD_FACTORS = {name: WORD_FACTOR[kind] for name, kind in PREMIUMS.items() if kind in WORD_FACTOR}

# (letter, value, count); "" is the blank.
TILES = [
    ("", 0, 2),
    ("Α", 1, 12), ("Ο", 1, 9), ("Ε", 1, 8), ("Ι", 1, 8), ("Τ", 1, 8), ("Η", 1, 7), ("Σ", 1, 7), ("Ν", 1, 6),
    ("Ρ", 2, 5), ("Κ", 2, 4), ("Π", 2, 4), ("Υ", 2, 4),
    ("Λ", 3, 3), ("Μ", 3, 3), ("Ω", 3, 3),
    ("Γ", 4, 2), ("Δ", 4, 2),
    ("Β", 8, 1), ("Φ", 8, 1), ("Χ", 8, 1),
    ("Ζ", 10, 1), ("Θ", 10, 1), ("Ξ", 10, 1), ("Ψ", 10, 1),
]  # fmt: skip


@lru_cache(maxsize=2)
def tile_bag(size: str) -> tuple[dict[str, Any], ...]:
    """Every tile of a ``"standard"`` or ``"large"`` bag: ``{"id", "letter", "value"}``."""
    factor = 1.5 if size == "large" else 1
    return tuple(
        build_deck([({"letter": letter, "value": value}, ceil(count * factor)) for letter, value, count in TILES])
    )


def word_score(old: int, new: Iterable[tuple[int, str]]) -> int:
    """The base score of one word: ``old`` is the sum of its tiles already on the board (their premiums were
    used when they were laid), ``new`` the (value, square) of each tile this play lays in it, whose square's
    letter premium multiplies the tile and whose word premium multiplies the whole word."""
    total, factor = old, 1
    for value, name in new:
        total += value * _LETTER_FACTORS.get(name, 1)
        factor *= _WORD_FACTORS.get(name, 1)
    return total * factor


def premium_factors(name: str) -> tuple[int, int]:
    """The factors a tile laid on square ``name`` scores with, as :func:`word_score` applies them: its letter
    premium's (on the tile) and its word premium's (on each word through it); ``(1, 1)`` on a plain square."""
    return _LETTER_FACTORS.get(name, 1), _WORD_FACTORS.get(name, 1)


def play_bonus(rack_size: int, laid: int) -> int:
    """The bonus for laying all ten tiles of a full rack in one move."""
    return BONUS if rack_size == RACK and laid == RACK else 0
