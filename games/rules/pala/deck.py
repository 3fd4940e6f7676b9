"""Pala's 48 cards, its colour wheel, and the hands dealt by player count.

Eight cards in each colour: the primaries red, blue and yellow are 1, 1, 2, 2, 3, 3, 4, 5; the secondaries orange,
green and purple are 2 to 9. Two primaries mix into the secondary between them on the wheel.
"""

from typing import Any

from games.engine.cards import Card, build_deck

PRIMARIES = ("red", "blue", "yellow")
SECONDARIES = ("orange", "green", "purple")
COLOURS = PRIMARIES + SECONDARIES
PRIMARY_VALUES = (1, 1, 2, 2, 3, 3, 4, 5)
SECONDARY_VALUES = (2, 3, 4, 5, 6, 7, 8, 9)

# Each secondary and the two primaries that make it.
MIXES: dict[str, frozenset[str]] = {
    "orange": frozenset({"red", "yellow"}),
    "green": frozenset({"blue", "yellow"}),
    "purple": frozenset({"red", "blue"}),
}

# Cards in each hand and cards set aside (face down, unused this round), by the number of players.
HAND_SIZE = {3: 14, 4: 11, 5: 9}
SET_ASIDE = {3: 6, 4: 4, 5: 3}


def _recipe() -> list[tuple[dict[str, Any], int]]:
    recipe: list[tuple[dict[str, Any], int]] = []
    for colour in COLOURS:
        values = PRIMARY_VALUES if colour in PRIMARIES else SECONDARY_VALUES
        recipe.extend(({"colour": colour, "value": value}, 1) for value in values)
    return recipe


DECK: tuple[Card, ...] = tuple(build_deck(_recipe()))


def colour(card: int) -> str:
    return str(DECK[card]["colour"])


def value(card: int) -> int:
    return int(DECK[card]["value"])


def is_primary(name: str) -> bool:
    return name in PRIMARIES


def mix_of(first: str, second: str) -> str | None:
    """The secondary two different primaries make, or None."""
    pair = frozenset({first, second})
    return next((secondary for secondary, parts in MIXES.items() if parts == pair), None)


def face(card: int, *, with_id: bool = True) -> dict[str, Any]:
    """A card as the page shows it; without its id where the card is no longer where the viewer may see it."""
    shown: dict[str, Any] = {"colour": colour(card), "value": value(card)}
    if with_id:
        shown["id"] = card
    return shown
