"""Palabra arithmetic: colour locks, star multipliers, what each card is worth inside a word.

A word on the table keeps ``card_values`` (each card's value in that word) and a ``bonus``; its ``value`` is
their sum minus whatever shaves and jokers have taken since. That is what makes the rulebook example work:
P★3 A L A B★3 R A is 12 × 3 × 3 = 108, + 70 = 178; shaving P and R moves 2×9 + 1×9 = 27; a joker then removes
the remaining 151.
"""

import itertools
from math import prod

from games.engine.cards import Card

from .deck import ALL_COLOURS, HAND_SIZE, LETTER, VOWEL, VOWELS, WILD

ALL_CARDS_BONUS = 70
VOWEL_PLAY_POINTS = {6: 20, 7: 40}
_PAIRS = ({"R", "B"}, {"G", "Y"})


def common_colours(cards: list[Card]) -> str:
    """The colours every card shares, in R B G Y order: non-empty means the cards are colour-locked."""
    shared = set(ALL_COLOURS)
    for card in cards:
        shared &= set(card["colors"])
    return "".join(c for c in ALL_COLOURS if c in shared)


def lock_multiplier(lock: str) -> int:
    """×2 for a colour lock, ×4 when locked in both colours of a two-colour pair (all-RB or all-GY)."""
    if not lock:
        return 1
    return 4 if any(pair <= set(lock) for pair in _PAIRS) else 2


def star_multiplier(cards: list[Card]) -> int:
    return prod(card["stars"] for card in cards if card["stars"])


def word_values(cards: list[Card]) -> tuple[list[int], str, int]:
    """Each card's value in a word of ``cards``, the word's lock colours and its multiplier."""
    lock = common_colours(cards)
    multiplier = star_multiplier(cards) * lock_multiplier(lock)
    return [card["value"] * multiplier for card in cards], lock, multiplier


def build_values(taken: list[Card], new: list[Card]) -> tuple[list[int], list[int], str, int]:
    """A build: the taken cards count their face value only; the new cards score as a word would, with their own
    stars and the colour lock of the whole new word. Returns (taken values, new values, lock, new multiplier)."""
    lock = common_colours(taken + new)
    multiplier = star_multiplier(new) * lock_multiplier(lock)
    return [card["value"] for card in taken], [card["value"] * multiplier for card in new], lock, multiplier


def all_cards_bonus(cards_from_hand: int) -> int:
    return ALL_CARDS_BONUS if cards_from_hand == HAND_SIZE else 0


def hand_penalty(cards: list[Card]) -> int:
    """A hand left at the end counts against its holder like a word: face values × stars. It is not laid out as a
    word, so no colour lock and no bonus."""
    return sum(card["value"] for card in cards) * star_multiplier(cards) if cards else 0


def is_straight(letters: list[str]) -> bool:
    """Three or more letters in alphabetical sequence, A following Z."""
    if len(letters) < 3:
        return False
    return all((ord(b) - ord(a)) % 26 == 1 for a, b in itertools.pairwise(letters))


def is_vowel_card(card: Card) -> bool:
    """Vowel and wild cards can be vowels; Y counts as one."""
    return card["kind"] in (VOWEL, WILD) or (card["kind"] == LETTER and card["letter"] in VOWELS)
