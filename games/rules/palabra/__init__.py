"""Palabra (English): the card game of words, shaves and jokers. See :mod:`.game` for the rules choices."""

from .game import Palabra, card_places

RULES = Palabra()

__all__ = ["RULES", "Palabra", "card_places"]
