"""The cards of Palabras Cortas, shared by the game and its solitaire: the rule sheet's deck of 118 and a Spanish
deck that adds Ñ, CH, LL and RR, and the table option that chooses between them."""

from games.engine import Option
from games.engine.cards import Card, build_deck

# (letters, points, count)
STANDARD_CARDS: tuple[tuple[str, int, int], ...] = (
    ("A", 2, 10), ("B", 8, 2), ("C", 8, 2), ("D", 5, 4), ("E", 2, 12), ("F", 6, 2), ("G", 6, 4), ("H", 7, 2),
    ("I", 2, 8), ("J", 13, 2), ("K", 8, 2), ("L", 3, 4), ("M", 5, 2), ("N", 5, 6), ("O", 2, 8), ("P", 6, 2),
    ("Q", 15, 2), ("R", 5, 6), ("S", 3, 4), ("T", 3, 6), ("U", 4, 6), ("V", 11, 2), ("W", 10, 2), ("X", 12, 2),
    ("Y", 4, 4), ("Z", 14, 2), ("QU", 9, 2), ("IN", 7, 2), ("ER", 7, 2), ("CL", 10, 2), ("TH", 9, 2),
)  # fmt: skip
SPANISH_EXTRA_CARDS: tuple[tuple[str, int, int], ...] = (("Ñ", 8, 2), ("CH", 5, 2), ("LL", 8, 2), ("RR", 8, 2))

DECKS: dict[str, list[Card]] = {
    "standard": build_deck([({"letters": letters, "points": points}, n) for letters, points, n in STANDARD_CARDS]),
    "spanish": build_deck(
        [({"letters": letters, "points": points}, n) for letters, points, n in STANDARD_CARDS + SPANISH_EXTRA_CARDS]
    ),
}

DECK_OPTION = Option(
    "deck",
    "Deck",
    "choice",
    "standard",
    choices=(("standard", "Rule sheet (118 cards)"), ("spanish", "Spanish (adds Ñ, CH, LL, RR: 126 cards)")),
)


def deck(name: str) -> list[Card]:
    """The cards of deck ``name`` (ids 0..N-1); shared, so never mutate them."""
    return DECKS[name]
