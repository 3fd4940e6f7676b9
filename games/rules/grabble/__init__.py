"""Grabble: Greek crossword tiles where every word is parsed when played and quizzed afterwards (the rules are read
in ``docs/games/grabble.md``)."""

from .board import CENTRE, PREMIUMS, RACK, SIZE, tile_bag
from .game import RULES, Grabble

__all__ = ["CENTRE", "PREMIUMS", "RACK", "RULES", "SIZE", "Grabble", "tile_bag"]
