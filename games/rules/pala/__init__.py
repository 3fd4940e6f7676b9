"""Pala, the colour-mixing trick-taking game (Pointillism and Impressionism). See :mod:`.game`."""

from .game import Pala

RULES = Pala()

__all__ = ["RULES", "Pala"]
