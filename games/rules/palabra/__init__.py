"""Palabra (English): the card game of words, shaves and jokers. See :mod:`.game` for where each part lives."""

from .game import Palabra
from .view import card_places

RULES = Palabra()

__all__ = ["RULES", "Palabra", "card_places"]
