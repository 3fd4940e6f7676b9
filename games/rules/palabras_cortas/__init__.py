"""Palabras Cortas: the game (``game``) and its deck (``deck``), which the solitaire shares."""

from .deck import DECK_OPTION, DECKS, SPANISH_EXTRA_CARDS, STANDARD_CARDS, deck
from .game import HANDS, RULES, PalabrasCortas

__all__ = ["DECKS", "DECK_OPTION", "HANDS", "RULES", "SPANISH_EXTRA_CARDS", "STANDARD_CARDS", "PalabrasCortas", "deck"]
