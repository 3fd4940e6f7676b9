"""Palabras Cortas solitaire: eight piles, words from the showing cards, refills."""

from .game import DEALT, FACE_DOWN, PILES, RULES, PalabrasCortasSolitario

__all__ = ["DEALT", "FACE_DOWN", "PILES", "RULES", "PalabrasCortasSolitario"]
