"""Letter cards: cards that carry ``letters`` (one letter, or a pair such as QU) and ``points``, laid in a row to
spell a word. What any game of such cards needs: a card as a page draws it, what a row of cards spells and is
worth, a laid word as events and views show it, and the lexicon look-up of a spelled word.

A deck of letter cards is built with :func:`games.engine.cards.build_deck` from ``{"letters": ..., "points": ...}``
recipes; states hold card ids only.
"""

from typing import Any

from .cards import Card
from .errors import BAD_ACTION, NOT_A_WORD, AppError
from .game import Context

NO_LEXICON = "no_lexicon"
MIN_WORD = 2  # cards in the shortest word


def face(cards: list[Card], card_id: int) -> dict[str, Any]:
    """A card as a page draws it, with its id (for cards the viewer may see and act on)."""
    card = cards[card_id]
    return {"id": card_id, "letters": card["letters"], "points": card["points"]}


def blank_face(cards: list[Card], card_id: int) -> dict[str, Any]:
    """A card's letters and points without its id: for what was laid or discarded, told to everyone, when the card
    itself may later go back into hidden hands."""
    card = cards[card_id]
    return {"letters": card["letters"], "points": card["points"]}


def spell(cards: list[Card], ids: list[int]) -> str:
    return "".join(cards[i]["letters"] for i in ids)


def points(cards: list[Card], ids: list[int]) -> int:
    return sum(cards[i]["points"] for i in ids)


def word_record(cards: list[Card], ids: list[int]) -> dict[str, Any]:
    """A laid word as events and views show it: its cards' faces, what it spells, its points and its length in
    letters (a QU card counts two)."""
    text = spell(cards, ids)
    return {
        "cards": [blank_face(cards, i) for i in ids],
        "word": text,
        "points": points(cards, ids),
        "letters": len(text),
    }


def word_ids(value: Any) -> list[int]:
    """One word from an action: a list of at least two distinct card ids, in reading order."""
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise AppError(BAD_ACTION, "Each word must be a list of card ids.")
    if len(value) < MIN_WORD:
        raise AppError(NOT_A_WORD, "A word needs at least two cards.")
    if len(set(value)) != len(value):
        raise AppError(BAD_ACTION, "The same card is used twice.")
    return list(value)


def look_up(ctx: Context, text: str) -> tuple[str, bool]:
    """The lexicon key of ``text`` and whether it is a word; refused when the table has no lexicon."""
    if ctx.lexicon is None:
        raise AppError(NO_LEXICON, "This table has no lexicon to check words against.")
    key = ctx.lexicon.normalise(text)
    return key, ctx.lexicon.is_word(key)
